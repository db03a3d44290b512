/**
 * What a page costs a visitor on first load: the gzip bytes of its HTML and of every JavaScript and
 * CSS file its HTML references under /_next/. Used by scripts/measure-build.mjs, scripts/bench.mjs
 * and the browser budget test (tests/e2e/budget.spec.ts), so all three count the same way.
 *
 *   JS:  <script src>, <link rel="preload" as="script">, <link rel="modulepreload">
 *   CSS: <link rel="stylesheet">, <link rel="preload" as="style">
 *
 * Each file is compressed on its own with gzip level 9 (node:zlib), as a server would send it, and the
 * sizes are summed. Inline scripts (the RSC payload) are part of the HTML and counted there.
 */
import { constants, gzipSync } from 'node:zlib';

/** gzip -9 size of a string or bytes. */
export function gzipSize(body) {
  return gzipSync(typeof body === 'string' ? Buffer.from(body) : body, { level: constants.Z_BEST_COMPRESSION }).length;
}

const ENTITIES = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>', '#39': "'", '#x27': "'", '#x2F': '/', '#47': '/' };

function decodeEntities(value) {
  return value.replace(/&(#?\w+);/g, (match, name) => ENTITIES[name] ?? match);
}

/** The attributes of one start tag, names lower-cased; a bare attribute has the value ''. */
function attributes(tag) {
  const attrs = {};
  const pattern = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
  // Skip the tag name itself.
  const body = tag.replace(/^<\s*[a-z0-9-]+/i, '').replace(/\/?>$/, '');
  for (const match of body.matchAll(pattern)) {
    attrs[match[1].toLowerCase()] = decodeEntities(match[2] ?? match[3] ?? match[4] ?? '');
  }
  return attrs;
}

/**
 * The /_next/ script and stylesheet URLs an HTML document references, absolute, deduplicated and
 * in document order.
 */
export function assetUrls(html, pageUrl) {
  const scripts = new Set();
  const styles = new Set();
  const origin = new URL(pageUrl).origin;
  const add = (set, href) => {
    if (!href) return;
    let url;
    try {
      url = new URL(href, pageUrl);
    } catch {
      return;
    }
    if (url.origin === origin && url.pathname.startsWith('/_next/')) set.add(url.href);
  };
  // Comments can hold markup that is never loaded.
  const markup = html.replace(/<!--[\s\S]*?-->/g, '');
  for (const match of markup.matchAll(/<(script|link)\b[^>]*>/gi)) {
    const tag = match[1].toLowerCase();
    const attrs = attributes(match[0]);
    if (tag === 'script') {
      add(scripts, attrs.src);
      continue;
    }
    const rel = (attrs.rel ?? '').toLowerCase().split(/\s+/);
    const as = (attrs.as ?? '').toLowerCase();
    if (rel.includes('modulepreload') || (rel.includes('preload') && as === 'script')) add(scripts, attrs.href);
    else if (rel.includes('stylesheet') || (rel.includes('preload') && as === 'style')) add(styles, attrs.href);
  }
  return { scripts: [...scripts], styles: [...styles] };
}

async function get(url) {
  const response = await fetch(url, { headers: { 'accept-encoding': 'identity' }, redirect: 'follow' });
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}

/**
 * The page's HTML and the body of every /_next/ script and stylesheet it references.
 * @returns {Promise<{ url: string, html: string, scripts: {url: string, body: string}[], styles: {url: string, body: string}[] }>}
 */
export async function pageAssets(baseUrl, path = '/') {
  const url = new URL(path, baseUrl).href;
  const html = (await get(url)).toString('utf8');
  const urls = assetUrls(html, url);
  const fetchAll = (list) => Promise.all(list.map(async (assetUrl) => ({ url: assetUrl, body: (await get(assetUrl)).toString('utf8') })));
  return { url, html, scripts: await fetchAll(urls.scripts), styles: await fetchAll(urls.styles) };
}

/**
 * gzip bytes a first load of `path` downloads: `js` (sum over `scripts`), `css` and `html`, plus the
 * uncompressed sizes in `raw`.
 */
export async function pageBytes(baseUrl, path = '/') {
  const assets = await pageAssets(baseUrl, path);
  const sum = (list, size) => list.reduce((total, asset) => total + size(asset.body), 0);
  const rawSize = (body) => Buffer.byteLength(body);
  return {
    js: sum(assets.scripts, gzipSize),
    css: sum(assets.styles, gzipSize),
    html: gzipSize(assets.html),
    scripts: assets.scripts.map((asset) => asset.url),
    styles: assets.styles.map((asset) => asset.url),
    raw: { js: sum(assets.scripts, rawSize), css: sum(assets.styles, rawSize), html: rawSize(assets.html) },
  };
}
