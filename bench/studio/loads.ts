/**
 * The loads of /studio: cold (a new context each run, nothing cached), warm (one context whose cache
 * holds the Studio's JavaScript), and the JavaScript one cold load downloads.
 */
import type { Page } from '@playwright/test';

import { sleep } from '../../testkit/processes.ts';
import { editorContext, eachRun, loadContentList, log, type Bench } from './browser.ts';

/** Each run in a new context: nothing cached, as an editor's first visit (the server itself is warm). */
export const coldLoads = (bench: Bench): Promise<number[]> =>
  eachRun(bench, 'cold load', async () => {
    const context = await editorContext(bench);
    try {
      return await loadContentList(await context.newPage(), bench.origin);
    } finally {
      await context.close();
    }
  });

/**
 * What `page` receives of JavaScript over the network from now on, headers included, from the DevTools
 * protocol: a script the HTTP cache answers receives nothing. The returned function reads and resets it.
 */
async function scriptBytesReceived(page: Page): Promise<() => number> {
  const cdp = await page.context().newCDPSession(page);
  const scripts = new Set<string>();
  let bytes = 0;
  cdp.on('Network.responseReceived', (event) => event.type === 'Script' && scripts.add(event.requestId));
  cdp.on('Network.loadingFinished', (event) => void (scripts.has(event.requestId) && (bytes += event.encodedDataLength)));
  await cdp.send('Network.enable');
  return () => {
    const taken = bytes;
    bytes = 0;
    return taken;
  };
}

export type WarmLoads = { times: number[]; scriptBytes: number[] };

/**
 * One context, loaded once untimed to fill its cache; each run then leaves for about:blank and opens
 * /studio again: a new document whose JavaScript comes from the cache (the Next chunks are immutable).
 * What each run still received over the network is kept, to show the cache was warm.
 */
export async function warmLoads(bench: Bench): Promise<WarmLoads> {
  const context = await editorContext(bench);
  const page = await context.newPage();
  const received = await scriptBytesReceived(page);
  await loadContentList(page, bench.origin);
  const scriptBytes: number[] = [];
  const times = await eachRun(bench, 'warm load', async () => {
    await page.goto('about:blank');
    received();
    const time = await loadContentList(page, bench.origin);
    scriptBytes.push(received());
    return time;
  });
  await context.close();
  log(`warm loads received at most ${Math.max(...scriptBytes)} bytes of JavaScript over the network each`);
  return { times, scriptBytes };
}

export type JsBytes = { files: number; transferBytes: number; decodedBytes: number };

/**
 * The JavaScript one cold load of /studio takes from the site: every script answer until the list is
 * shown and no further script has arrived for 2 s (the Studio loads some chunks after its first paint).
 * Transfer is the encoded body as sent (Playwright's responseBodySize); decoded is the body itself.
 * Untimed: reading each body back from the browser would slow the load it counts.
 */
export async function studioJavaScript(bench: Bench): Promise<JsBytes> {
  const context = await editorContext(bench);
  const page = await context.newPage();
  const counted: Promise<{ transfer: number; decoded: number }>[] = [];
  let lastScript = performance.now();
  page.on('response', (response) => {
    const isScript = response.request().resourceType() === 'script' || /javascript/.test(response.headers()['content-type'] ?? '');
    if (!isScript || !response.url().startsWith(bench.origin)) return;
    lastScript = performance.now();
    counted.push(
      Promise.all([response.request().sizes(), response.body()]).then(([sizes, body]) => ({
        transfer: sizes.responseBodySize,
        decoded: body.length,
      })),
    );
  });
  await loadContentList(page, bench.origin);
  while (performance.now() - lastScript < 2000) await sleep(200);
  const scripts = await Promise.all(counted);
  await context.close();
  return {
    files: scripts.length,
    transferBytes: scripts.reduce((sum, script) => sum + script.transfer, 0),
    decodedBytes: scripts.reduce((sum, script) => sum + script.decoded, 0),
  };
}
