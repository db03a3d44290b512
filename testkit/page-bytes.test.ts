import { describe, expect, it } from 'vitest';

import { inlineStyleBytes, renderBlockingRequests, STYLESHEET_BUDGET_BYTES, stylesheetCopies, stylesheetProblems } from './page-bytes.ts';

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

/** The browser tests run stylesheetProblems on the built pages' stylesheet; these pin down what it finds. */
describe('stylesheetProblems', () => {
  it("finds, in Tailwind's output as it was before the stylesheet was trimmed, the fallbacks, the theme variables, the composing utilities and the preflight", () => {
    const css =
      ':root,:host{--font-sans:-apple-system, sans-serif;--color-gray-200:#e5e7eb;--spacing:.25rem}' +
      '@supports (color:lab(0% 0 0)){:root,:host{--color-gray-200:lab(91.6229% -.159115 -2.26791)}}' +
      '::file-selector-button{margin-inline-end:4px}' +
      '.bg-white\\/15{background-color:#ffffff26}@supports (color:color-mix(in lab, red, red)){.bg-white\\/15{background-color:color-mix(in oklab, var(--color-white) 15%, transparent)}}' +
      '.shadow-sm{--tw-shadow:0 1px 3px 0 var(--tw-shadow-color,#0000001a);box-shadow:var(--tw-ring-shadow), var(--tw-shadow)}';
    expect(stylesheetProblems(css)).toHaveLength(4);
    expect(stylesheetProblems(`.a{color:red}${' '.repeat(STYLESHEET_BUDGET_BYTES)}`)).toEqual([
      `${STYLESHEET_BUDGET_BYTES + 13} bytes, over the budget of ${STYLESHEET_BUDGET_BYTES}`,
    ]);
  });

  it("passes the site's own: inline values, registered properties Tailwind needs, plain shadows", () => {
    const css =
      '@layer properties{@supports ((-moz-orient:inline) and (not (color:rgb(from red r g b)))){*,:before{--tw-border-style:solid}}}' +
      '.mt-4{margin-top:1rem}.border{border-style:var(--tw-border-style);border-width:1px}.text-red-700{color:oklch(50.5% .213 27.518)}' +
      '.shadow-sm{box-shadow:0 1px 3px #0000001a,0 1px 2px -1px #0000001a}@property --tw-border-style{syntax:"*";inherits:false;initial-value:solid}';
    expect(stylesheetProblems(css)).toEqual([]);
  });
});
