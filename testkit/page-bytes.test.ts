import { describe, expect, it } from 'vitest';

import { inlineStyleBytes, renderBlockingRequests } from './page-bytes.ts';

/** The browser tests run renderBlockingRequests on real pages; these pin down what it counts as blocking. */
describe('renderBlockingRequests', () => {
  it('finds a stylesheet link, a synchronous script and an @import in an inline style', () => {
    const html =
      '<html><head><link rel="stylesheet" href="/_next/static/chunks/a.css" data-precedence="next"/>' +
      '<script src="/_next/static/chunks/b.js"></script><style>@import url(/c.css);</style></head><body></body></html>';
    expect(renderBlockingRequests(html)).toHaveLength(3);
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
