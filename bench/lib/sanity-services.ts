/**
 * Sanity's own services answered for one page, as testkit/studio.ts answerForSanityServices answers them
 * for the tests (SANITY_SERVICES, the same answers), but through the DevTools protocol's Fetch domain on
 * those hosts alone. Playwright's routing turns the HTTP cache off and pauses every request in Node:
 * a measured warm load would download the Studio's 2 MB of JavaScript again (measured: 36 scripts over
 * the network on every reload with routing, none without), and every load would pay a round trip to
 * Node per request, which an editor's browser never does.
 */
import type { CDPSession, Page } from '@playwright/test';

import { SANITY_SERVICES } from '../../testkit/studio.ts';

type Paused = { requestId: string; request: { url: string; method: string; headers: Record<string, string> } };

/** The header names of a request, whatever their case (the protocol keeps the page's). */
const header = (headers: Record<string, string>, name: string) => Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];

/** The service's answer, or a CORS preflight's (the feedback probe is a cross-origin POST), as Playwright's route.fulfill gives them. */
async function answer(cdp: CDPSession, { requestId, request }: Paused): Promise<void> {
  const service = SANITY_SERVICES.find(({ prefix }) => request.url.startsWith(prefix));
  const origin = header(request.headers, 'origin');
  const cors = origin
    ? [
        { name: 'Access-Control-Allow-Origin', value: origin },
        { name: 'Access-Control-Allow-Credentials', value: 'true' },
      ]
    : [];
  if (request.method === 'OPTIONS') {
    const asked = header(request.headers, 'access-control-request-headers');
    await cdp.send('Fetch.fulfillRequest', {
      requestId,
      responseCode: 204,
      responseHeaders: [
        ...cors,
        { name: 'Access-Control-Allow-Methods', value: header(request.headers, 'access-control-request-method') ?? 'GET' },
        ...(asked ? [{ name: 'Access-Control-Allow-Headers', value: asked }] : []),
      ],
    });
    return;
  }
  if (!service) return void (await cdp.send('Fetch.continueRequest', { requestId }));
  await cdp.send('Fetch.fulfillRequest', {
    requestId,
    responseCode: 200,
    responseHeaders: [{ name: 'Content-Type', value: service.contentType }, ...cors],
    body: Buffer.from(service.body).toString('base64'),
  });
}

/** Answers SANITY_SERVICES for `page` (its frames in the same process included) from now on. Await it before the page navigates. */
export async function answerKeepingCache(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  // A page that closes while an answer is on its way takes its session with it: nothing left to answer.
  cdp.on('Fetch.requestPaused', (event: Paused) => void answer(cdp, event).catch(() => {}));
  await cdp.send('Fetch.enable', { patterns: SANITY_SERVICES.map(({ prefix }) => ({ urlPattern: `${prefix}*` })) });
}
