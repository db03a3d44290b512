/**
 * What a page costs a visitor on first load: the gzip bytes of its HTML and of every JavaScript and
 * CSS file its HTML references under /_next/. Used by npm run bench -- pages, the bench
 * and the browser budget test (tests/e2e/budget.spec.ts), so all three count the same way.
 *
 *   JS:  <script src>, <link rel="preload" as="script">, <link rel="modulepreload">
 *   CSS: <link rel="stylesheet">, <link rel="preload" as="style">
 *
 * Each file is compressed on its own with gzip level 9 (node:zlib), as a server would send it, and the
 * sizes are summed. Inline scripts (the RSC payload) are part of the HTML and counted there.
 */
import { constants, gzipSync } from 'node:zlib';

import { attribute } from './forms.ts';

/** gzip -9 size of a string or bytes. */
export function gzipSize(body: string | Uint8Array): number {
  return gzipSync(typeof body === 'string' ? Buffer.from(body) : body, { level: constants.Z_BEST_COMPRESSION }).length;
}

/** The start tags of scripts and links in document order; comments, which can hold markup that is never loaded, left out. */
function loadingTags(html: string) {
  const markup = html.replace(/<!--[\s\S]*?-->/g, '');
  return [...markup.matchAll(/<(script|link)\b[^>]*>/gi)].map((match) => ({ name: match[1]!.toLowerCase(), tag: match[0] }));
}

/** Whether a start tag carries boolean attribute `name` (React writes `async=""`). */
const hasAttribute = (tag: string, name: string) => new RegExp(`\\s${name}(?:=|\\s|/?>)`, 'i').test(tag);

const relOf = (tag: string) => (attribute(tag, 'rel') ?? '').toLowerCase().split(/\s+/);

/** The text of each inline `<style>` element. */
const styleTexts = (html: string) => [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)].map((match) => match[1]!);

/**
 * What an HTML document makes the browser wait for before it may paint: each `<link rel="stylesheet">`
 * (not one for print only or disabled), each `<script src>` without async, defer or type="module" (the
 * parser stops there until it has arrived and run; a nomodule script is one no current browser fetches),
 * each `@import` in an inline `<style>`, and each element that holds the paint itself (`blocking="render"`,
 * such as `<link rel="expect">`, which holds it until an element is parsed: the async scripts then run
 * first). Empty for a page whose first paint waits for nothing but the HTML it has. Structural, so no
 * machine's speed changes it.
 */
export function renderBlockingRequests(html: string): string[] {
  const found = loadingTags(html).flatMap(({ name, tag }) => {
    if ((attribute(tag, 'blocking') ?? '').toLowerCase().split(/\s+/).includes('render')) return [`render hold ${tag}`];
    if (name === 'script') {
      const blocks =
        attribute(tag, 'src') &&
        !['async', 'defer', 'nomodule'].some((flag) => hasAttribute(tag, flag)) &&
        attribute(tag, 'type') !== 'module';
      return blocks ? [`synchronous script ${tag}`] : [];
    }
    const media = (attribute(tag, 'media') ?? 'all').trim().toLowerCase();
    const blocks = relOf(tag).includes('stylesheet') && !hasAttribute(tag, 'disabled') && media !== 'print';
    return blocks ? [`stylesheet ${tag}`] : [];
  });
  const imports = styleTexts(html).filter((css) => /@import\b/i.test(css));
  return [...found, ...imports.map((css) => `@import in <style>${css.slice(0, 120)}…`)];
}

/** The bytes of CSS a document carries in its own `<style>` elements. */
export const inlineStyleBytes = (html: string) => styleTexts(html).reduce((total, css) => total + Buffer.byteLength(css), 0);

/**
 * How many times the document carries the text of its largest `<style>`: the element itself, and each
 * copy in the page's RSC payload (a JavaScript string there, so it is found by a start of the stylesheet
 * with no character a string escapes). 0 without a `<style>`.
 */
export function stylesheetCopies(html: string): number {
  const start = siteStylesheet(html)
    .slice(0, 200)
    .split(/["\\\n<]/)[0];
  return start ? html.split(start).length - 1 : 0;
}

/** The site's stylesheet as a page carries it: the text of its largest `<style>` ('' without one). */
export const siteStylesheet = (html: string) => styleTexts(html).sort((a, b) => b.length - a.length)[0] ?? '';

/**
 * What the site's stylesheet may weigh, raw: it travels twice in every page (the <style> and Next's copy
 * in the RSC payload), and under about 16 KB the two copies of `/` stay within gzip's 32 KB window, so the
 * second costs about 0.5 KB gzip. It is 10.3 KB (docs/measuring.md, "The stylesheet").
 */
export const STYLESHEET_BUDGET_BYTES = 12 * 1024;

/**
 * What the site's stylesheet must not carry (app/globals.css says why), each found in Tailwind's and
 * Lightning CSS's output for the supported browsers' floor (Chrome 111, Safari 16.4, Firefox 128):
 */
const STYLESHEET_RULES = [
  // a colour written again for a browser without lab() or color-mix() (Firefox before 113);
  { problem: 'a fallback for a browser older than the supported ones', pattern: /@supports\s*\(\s*color\s*:\s*(?:lab|color-mix)\(/i },
  // Tailwind's theme variables (:root { --color-…; --spacing… }): the theme is inline, each utility holds its value;
  {
    problem: 'theme variables (the theme is inline)',
    pattern: /[{;]\s*--(?:color|spacing|text|font|container|radius|tracking|default)[\w-]*\s*:/,
  },
  // utilities that compose through registered properties, 120 to 255 bytes a rule and @property rules;
  {
    problem: "Tailwind's composing shadow, ring, gradient, space-y or divide utilities",
    pattern: /--tw-(?:shadow|ring|inset|gradient|space|divide)/,
  },
  // Tailwind's preflight, whose place a reset of what the pages need takes.
  { problem: "Tailwind's preflight", pattern: /::file-selector-button|::-webkit-datetime-edit/ },
] as const;

/** What is wrong with a stylesheet: each rule above it breaks, and its size over the budget. Empty when nothing is. */
export function stylesheetProblems(css: string): string[] {
  const bytes = Buffer.byteLength(css);
  return [
    ...STYLESHEET_RULES.filter(({ pattern }) => pattern.test(css)).map(({ problem, pattern }) => `${problem}: ${pattern.exec(css)![0]}`),
    ...(bytes > STYLESHEET_BUDGET_BYTES ? [`${bytes} bytes, over the budget of ${STYLESHEET_BUDGET_BYTES}`] : []),
  ];
}

/**
 * The /_next/ script and stylesheet URLs an HTML document references, absolute, deduplicated and
 * in document order.
 */
export function assetUrls(html: string, pageUrl: string) {
  const scripts = new Set<string>();
  const styles = new Set<string>();
  const origin = new URL(pageUrl).origin;
  const add = (set: Set<string>, href: string | undefined) => {
    const url = href ? URL.parse(href, pageUrl) : null;
    if (url?.origin === origin && url.pathname.startsWith('/_next/')) set.add(url.href);
  };
  for (const { name, tag } of loadingTags(html)) {
    if (name === 'script') {
      add(scripts, attribute(tag, 'src'));
      continue;
    }
    const rel = relOf(tag);
    const as = (attribute(tag, 'as') ?? '').toLowerCase();
    if (rel.includes('modulepreload') || (rel.includes('preload') && as === 'script')) add(scripts, attribute(tag, 'href'));
    else if (rel.includes('stylesheet') || (rel.includes('preload') && as === 'style')) add(styles, attribute(tag, 'href'));
  }
  return { scripts: [...scripts], styles: [...styles] };
}

async function get(url: string) {
  const response = await fetch(url, { headers: { 'accept-encoding': 'identity' }, redirect: 'follow' });
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}

export type Asset = { url: string; body: string };

/** The page's HTML and the body of every /_next/ script and stylesheet it references. */
export async function pageAssets(baseUrl: string, path = '/') {
  const url = new URL(path, baseUrl).href;
  const html = (await get(url)).toString('utf8');
  const urls = assetUrls(html, url);
  const fetchAll = (list: string[]): Promise<Asset[]> =>
    Promise.all(list.map(async (assetUrl) => ({ url: assetUrl, body: (await get(assetUrl)).toString('utf8') })));
  return { url, html, scripts: await fetchAll(urls.scripts), styles: await fetchAll(urls.styles) };
}

/**
 * gzip bytes a first load of `path` downloads: `js` (sum over `scripts`), `css` and `html`, plus the
 * uncompressed sizes in `raw`.
 */
export async function pageBytes(baseUrl: string, path = '/') {
  const assets = await pageAssets(baseUrl, path);
  const sum = (list: Asset[], size: (body: string) => number) => list.reduce((total, asset) => total + size(asset.body), 0);
  const rawSize = (body: string) => Buffer.byteLength(body);
  return {
    js: sum(assets.scripts, gzipSize),
    css: sum(assets.styles, gzipSize),
    html: gzipSize(assets.html),
    scripts: assets.scripts.map((asset) => asset.url),
    styles: assets.styles.map((asset) => asset.url),
    raw: { js: sum(assets.scripts, rawSize), css: sum(assets.styles, rawSize), html: rawSize(assets.html) },
  };
}

/**
 * What each public page's HTML may weigh (gzip -9, as counted here), with the site's stylesheet in it
 * twice (next.config.ts, inlineCss): `/` weighs 11.6 KB, 7.9 KB before the stylesheet was inlined
 * (docs/measuring.md). 13 KB leaves room for copy.
 */
export const HTML_BUDGET_BYTES = 13 * 1024;
