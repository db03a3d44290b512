import { describe, expect, it } from 'vitest';

import { inlineStyleBytes, renderBlockingRequests, stylesheetCopies } from './page-bytes.ts';

/** The browser tests run renderBlockingRequests on real pages; these pin down what it counts as blocking. */
describe('renderBlockingRequests', () => {
  it('finds a stylesheet link, a synchronous script, an @import in an inline style and a render hold', () => {
    const html =
      '<html><head><link rel="stylesheet" href="/_next/static/chunks/a.css" data-precedence="next"/>' +
      '<script src="/_next/static/chunks/b.js"></script><style>@import url(/c.css);</style>' +
      '<link rel="expect" href="#footer" blocking="render"/></head><body></body></html>';
    expect(renderBlockingRequests(html)).toHaveLength(4);
  });

  it('passes what the browser does not wait for: async, defer, module and nomodule scripts, print and disabled sheets, preloads, inline styles', () => {
    const html =
      '<html><head><style data-precedence="next">body{color:red}</style>' +
      '<link rel="preload" as="style" href="/a.css"/><link rel="stylesheet" media="print" href="/p.css"/>' +
      '<link rel="stylesheet" disabled="" href="/d.css"/><script src="/a.js" async=""></script>' +
      '<script defer src="/b.js"></script><script src="/polyfills.js" noModule=""></script><script type="module" src="/c.js"></script><script>self.x=1</script>' +
      '<!-- <link rel="stylesheet" href="/commented.css"> --></head><body></body></html>';
    expect(renderBlockingRequests(html)).toEqual([]);
    expect(inlineStyleBytes(html)).toBe('body{color:red}'.length);
  });
});

describe('stylesheetCopies', () => {
  it('counts the <style> and each copy of its text in the RSC payload, escaped as a JavaScript string', () => {
    const css = 'body{color:red}.a{font-family:"x"}';
    const payload = `<script>self.__next_f.push([1,${JSON.stringify(`7:T22,${css}`)}])</script>`;
    const html = `<html><head><style data-precedence="next">${css}</style></head><body>${payload}${payload}</body></html>`;
    expect(stylesheetCopies(html)).toBe(3);
    expect(stylesheetCopies('<html><head></head><body></body></html>')).toBe(0);
  });
});
