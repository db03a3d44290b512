// Types of page-bytes.mjs for the TypeScript files that import it (tests/e2e/budget.spec.ts).

export type Asset = { url: string; body: string };

export type PageAssets = { url: string; html: string; scripts: Asset[]; styles: Asset[] };

export type PageBytes = {
  /** gzip -9 bytes of every /_next/ script the HTML references, each compressed on its own. */
  js: number;
  css: number;
  html: number;
  scripts: string[];
  styles: string[];
  /** The same, uncompressed. */
  raw: { js: number; css: number; html: number };
};

export function gzipSize(body: string | Uint8Array): number;
export function assetUrls(html: string, pageUrl: string): { scripts: string[]; styles: string[] };
export function pageAssets(baseUrl: string, path?: string): Promise<PageAssets>;
export function pageBytes(baseUrl: string, path?: string): Promise<PageBytes>;
