import { readdir } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';

import { encodeSignatureHeader, SIGNATURE_HEADER_NAME } from '@sanity/webhook';

import { SIGNATURE_WINDOW_MS } from '../../lib/content/webhook';
import { MAX_BODY_BYTES } from '@school-site/guards';
import { REFUSALS } from '../../lib/http/refusals';
import { postWebhook, WEBHOOK_SECRET } from '../../testkit/dataset';
import { SEED_ES, SEED_NOT_FOUND } from '../../testkit/seed-copy';
import { expect, test } from '../../testkit/test';

/**
 * Hostile traffic against the production build over HTTP: webhook calls that must cost
 * nothing, paths that must leave nothing on disk, headers on every kind of response. The form posts
 * and crafted action calls are in hostile-input.spec.ts.
 */

const WEBHOOK = '/api/revalidate';
const MEGABYTE = 1024 * 1024;
/** The server's build directory, where Next's ISR cache writes what it renders (playwright.config.ts serves it). */
const DIST_DIR = path.resolve(process.env.NEXT_DIST_DIR || '.next');

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string; bytesSent: number };

/**
 * POSTs `headers`, then body chunks without ever ending the body (`declaredLength` may claim far more).
 * A server that reads the whole body before answering never answers this; one that judges the call
 * first answers while the body is still open. The deadline only turns a hang into a failure.
 */
function postWithOpenBody(
  url: string,
  headers: Record<string, string>,
  { chunkBytes = 64 * 1024, maxBytes = 32 * MEGABYTE } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let bytesSent = 0;
    let answered = false;
    const request = http.request(url, { method: 'POST', headers });
    const deadline = setTimeout(() => {
      request.destroy();
      reject(new Error(`no answer after ${bytesSent} bytes while the body was still open: the server waits for the whole body`));
    }, 20_000);
    request.on('response', (response) => {
      answered = true;
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (text: string) => (body += text));
      response.on('end', () => {
        clearTimeout(deadline);
        request.destroy();
        resolve({ status: response.statusCode!, headers: response.headers, body, bytesSent });
      });
    });
    request.on('error', (error) => answered || reject(error));
    const chunk = Buffer.alloc(chunkBytes, ' ');
    const send = () => {
      while (!answered && bytesSent < maxBytes) {
        bytesSent += chunk.byteLength;
        if (!request.write(chunk)) return void request.once('drain', send);
      }
    };
    request.flushHeaders();
    send();
  });
}

const signature = (payload: string, timestamp = Date.now(), secret = WEBHOOK_SECRET) => encodeSignatureHeader(payload, timestamp, secret);

test.describe('webhook calls that cost nothing', () => {
  test('a call without the signature header gets 401 before its 300 MB body is read', async ({ baseURL }) => {
    const answer = await postWithOpenBody(new URL(WEBHOOK, baseURL).href, {
      'content-type': 'application/json',
      'content-length': String(300 * MEGABYTE),
    });
    expect(answer.status).toBe(401);
    expect(answer.bytesSent).toBeLessThan(300 * MEGABYTE);
  });

  test('a signed-looking call declaring more than 64 KB gets 413 before its body is read', async ({ baseURL }) => {
    // No byte of the body is sent: the answer cannot depend on it, and a server closing on unread bytes
    // could reset the connection before the client reads the answer.
    const answer = await postWithOpenBody(
      new URL(WEBHOOK, baseURL).href,
      {
        'content-type': 'application/json',
        'content-length': String(MAX_BODY_BYTES + 1),
        [SIGNATURE_HEADER_NAME]: await signature('{}', Date.now(), 'forged'),
      },
      { maxBytes: 0 },
    );
    expect(answer.status).toBe(413);
  });

  test('a body without a length (chunked) gets 413 once it passes 64 KB, while the client is still sending', async ({ baseURL }) => {
    const answer = await postWithOpenBody(new URL(WEBHOOK, baseURL).href, {
      'content-type': 'application/json',
      'transfer-encoding': 'chunked',
      [SIGNATURE_HEADER_NAME]: await signature('{}', Date.now(), 'forged'),
    });
    expect(answer.status).toBe(413);
  });

  test('a captured call cannot be replayed, nor one signed for another time', async ({ baseURL }) => {
    const payload = JSON.stringify({ _type: 'privacyPolicy', _id: 'privacyPolicy' });
    const send = async (header: string) =>
      (
        await fetch(new URL(WEBHOOK, baseURL), {
          method: 'POST',
          headers: { 'content-type': 'application/json', [SIGNATURE_HEADER_NAME]: header },
          body: payload,
        })
      ).status;

    const captured = await signature(payload);
    expect(await send(captured)).toBe(200);
    expect(await send(captured)).toBe(409);
    for (const timestamp of [
      Date.UTC(2021, 5, 1),
      Date.UTC(2035, 5, 1),
      Date.now() - SIGNATURE_WINDOW_MS - 60_000,
      Date.now() + SIGNATURE_WINDOW_MS + 60_000,
    ]) {
      expect(await send(await signature(payload, timestamp)), new Date(timestamp).toISOString()).toBe(401);
    }
    // A fresh call is still accepted.
    expect((await postWebhook(baseURL!, JSON.parse(payload))).status).toBe(200);
  });
});

// ---------------------------------------------------------------------------------------------------

/**
 * The files of the build the server can write. Not its `standalone` folder: that is serve:prod's, whose start
 * (stack.spec.ts, scale.spec.ts, in the other worker) adds the static files and their compressed copies.
 */
async function filesUnder(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile() && path.relative(dir, entry.parentPath).split(path.sep)[0] !== 'standalone').length;
}

const random = () => Math.random().toString(36).slice(2);

test.describe('nothing an anonymous client can fill', () => {
  test('any /studio path opens the one Studio page and adds no file to the server', async ({ request }) => {
    const studio = await request.get('/studio');
    expect(studio.status()).toBe(200);
    const studioHtml = await studio.text();
    const before = await filesUnder(DIST_DIR);

    const paths = [
      '/studio/structure/privacyPolicy',
      '/studio/presentation',
      ...Array.from({ length: 50 }, () => `/studio/${random()}/${random()}`),
    ];
    const notTheStudioPage: string[] = [];
    for (const studioPath of paths) {
      const response = await request.get(studioPath, { maxRedirects: 0 });
      if (response.status() !== 200 || (await response.text()) !== studioHtml) notTheStudioPage.push(`${studioPath} ${response.status()}`);
      // The client router's request for the same path (an RSC fetch) is the same one page too.
      const rsc = await request.get(studioPath, { headers: { rsc: '1' }, maxRedirects: 0 });
      if (rsc.status() >= 400) notTheStudioPage.push(`${studioPath} (RSC) ${rsc.status()}`);
    }
    expect(await filesUnder(DIST_DIR), `files under ${DIST_DIR}`).toBe(before);
    expect(notTheStudioPage).toEqual([]);
    // That a deep link opens the Studio at the address the editor asked for: studio.spec.ts.
  });

  test('random unknown paths, query strings and 404s add no file either', async ({ request }) => {
    for (const warm of ['/', '/support', '/privacy', '/nope']) await request.get(warm);
    const before = await filesUnder(DIST_DIR);
    for (let i = 0; i < 20; i += 1) {
      expect((await request.get(`/${random()}`)).status()).toBe(404);
      expect((await request.get(`/studio${random()}`)).status()).toBe(404);
      expect((await request.get(`/?${random()}=${random()}`)).status()).toBe(200);
      expect((await request.get(`/support?_rsc=${random()}`, { headers: { rsc: '1' } })).status()).toBe(200);
    }
    expect(await filesUnder(DIST_DIR), `files under ${DIST_DIR}`).toBe(before);
  });
});

test.describe('made-up paths under load', () => {
  /** A Host the server does not listen on, as a scanner or a proxy in front may send. */
  const HOST = 'example.org';
  /** An unknown first segment, a day no version can have, a page number no list has, an answer no link gives. */
  const MADE_UP = ['/wp-login.php', '/xx', '/privacy/versions/1999-01-01', '/es/privacy/versions/page/0', '/subscription/nope'];
  const REQUESTS = 1200;

  /** GET `pathname` as sent with Host HOST over `agent`'s connections; its status, headers and body. */
  const getAs = (baseURL: string, pathname: string, agent: http.Agent) =>
    new Promise<Answer>((resolve, reject) => {
      const request = http.get(new URL(pathname, baseURL), { agent, headers: { host: HOST, accept: 'text/html' } }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (text: string) => (body += text));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body, bytesSent: 0 }));
      });
      request.on('error', reject);
    });

  test('answer the 404 page and nothing else, from the server itself, whatever the Host, also while its words are rendered anew', async ({
    baseURL,
  }) => {
    test.setTimeout(120_000);
    // Expires the 404 page's words (its tags): the load meets the one render that brings them back.
    expect((await postWebhook(baseURL!, { _type: 'siteSettings', _id: 'siteSettings' })).status).toBe(200);
    // 32 kept-alive connections, each sending its next request when the last is answered.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
    try {
      const answers = await Promise.all(Array.from({ length: REQUESTS }, (_, n) => getAs(baseURL!, MADE_UP[n % MADE_UP.length]!, agent)));
      /** How many answers give each value of `of` (given each answer and the path it was asked for). */
      const tally = (of: (answer: Answer, pathname: string) => unknown) => {
        const counts: Record<string, number> = {};
        for (const key of answers.map((answer, n) => String(of(answer, MADE_UP[n % MADE_UP.length]!))))
          counts[key] = (counts[key] ?? 0) + 1;
        return counts;
      };
      expect(tally((answer) => answer.status)).toEqual({ 404: REQUESTS });
      // In the language of the path: a made-up path under /es gets the Spanish page.
      const heading = (pathname: string) => (pathname.startsWith('/es/') ? SEED_ES.settings.notFound! : SEED_NOT_FOUND).heading;
      expect(tally((answer, pathname) => answer.body.includes(heading(pathname)!))).toEqual({ true: REQUESTS });
      // Next marks an answer it fetched from the server over HTTP, for a proxy's rewrite, with this header.
      expect(tally((answer) => answer.headers['x-middleware-rewrite'] ?? 'none')).toEqual({ none: REQUESTS });
    } finally {
      agent.destroy();
    }
  });
});

// ---------------------------------------------------------------------------------------------------

type Policy = 'site' | 'studio';
type Probe = {
  name: string;
  status: number;
  policy: Policy;
  location?: string;
  send: (baseURL: string) => Promise<{ status: number; headers: Record<string, string> }>;
};

const viaFetch =
  (requestPath: string, init: RequestInit = {}) =>
  async (baseURL: string) => {
    const response = await fetch(new URL(requestPath, baseURL), { redirect: 'manual', ...init });
    await response.arrayBuffer();
    return { status: response.status, headers: Object.fromEntries(response.headers) };
  };
const get = (requestPath: string, status: number, policy: Policy = 'site'): Probe => ({
  name: `GET ${requestPath}`,
  status,
  policy,
  send: viaFetch(requestPath),
});
const redirect = (requestPath: string, location: string, policy: Policy = 'site'): Probe => ({
  ...get(requestPath, 308, policy),
  location,
});
const formPost = (name: string, status: number, headers: Record<string, string>, body: BodyInit): Probe => ({
  name,
  status,
  policy: 'site',
  send: (baseURL) => viaFetch('/support', { method: 'POST', headers: { origin: new URL(baseURL).origin, ...headers }, body })(baseURL),
});

const PROBES: Probe[] = [
  get('/', 200),
  get('/support', 200),
  get('/privacy', 200),
  get('/sitemap.xml', 200),
  get('/robots.txt', 200),
  get('/icon.svg', 200),
  get('/this-page-does-not-exist', 404),
  // Paths that merely start with "studio" are not the Studio.
  get('/studiox', 404),
  get('/studio.html', 404),
  get('/studio%2fabc', 404),
  get('/studio', 200, 'studio'),
  get('/studio/structure/privacyPolicy', 200, 'studio'),
  // Trailing-slash redirects: the Studio's with the Studio's headers.
  redirect('/studio/', '/studio', 'studio'),
  redirect('/studio/structure/privacyPolicy/', '/studio/structure/privacyPolicy', 'studio'),
  redirect('/support/?from=mail', '/support?from=mail'),
  redirect(`${WEBHOOK}/`, WEBHOOK),
  get('/_next/static/does-not-exist.js', 404),
  get('/api/draft-mode/enable', 401),
  get('/api/draft-mode/disable', 307),
  get(WEBHOOK, 405),
  { name: `POST ${WEBHOOK} unsigned`, status: 401, policy: 'site', send: viaFetch(WEBHOOK, { method: 'POST', body: '{}' }) },
  formPost(
    'the proxy refusing a cross-site post',
    REFUSALS.crossSite.status,
    { origin: 'https://evil.example', 'content-type': 'multipart/form-data; boundary=x' },
    '--x--',
  ),
  formPost('the proxy refusing a body that is not a form', REFUSALS.notAForm.status, { 'content-type': 'text/plain' }, 'x'),
  formPost(
    'the proxy refusing an oversized form',
    REFUSALS.tooLarge.status,
    { 'content-type': 'multipart/form-data; boundary=x' },
    'x'.repeat(MAX_BODY_BYTES + 1),
  ),
  formPost(
    'the proxy refusing an unreadable form',
    REFUSALS.unreadable.status,
    { 'content-type': 'multipart/form-data; boundary=x' },
    '--x\r\nContent-Disp',
  ),
];

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .map(([name, ...sources]) => [name!.toLowerCase(), sources]),
  );
}

test.describe('security headers on every response', () => {
  for (const probe of PROBES) {
    test(`${probe.name} → ${probe.status} with the ${probe.policy} policy`, async ({ baseURL }) => {
      const { status, headers } = await probe.send(baseURL!);
      expect(status).toBe(probe.status);
      if (probe.location) {
        const target = new URL(headers.location!, baseURL);
        expect(`${target.pathname}${target.search}`, 'Location').toBe(probe.location);
      }
      expect(headers['strict-transport-security'], 'HSTS').toMatch(/max-age=\d{8}/);
      expect(headers['x-content-type-options'], 'nosniff').toBe('nosniff');
      expect(headers['referrer-policy'], 'Referrer-Policy').toBe('strict-origin-when-cross-origin');
      expect(headers['permissions-policy'], 'Permissions-Policy').toContain('geolocation=()');
      const csp = directives(headers['content-security-policy'] ?? '');
      expect(csp.get('default-src'), 'Content-Security-Policy').toEqual(["'self'"]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      // The Studio is never framed; the site only by the Studio (same origin) for previews.
      expect(csp.get('frame-ancestors')).toEqual([probe.policy === 'studio' ? "'none'" : "'self'"]);
      expect(headers['x-frame-options']).toBe(probe.policy === 'studio' ? 'DENY' : 'SAMEORIGIN');
      // On the embedded default not even the Studio loads Sanity's scripts (lib/http/security-headers.ts).
      expect(csp.get('script-src'), 'no page may load scripts from the Sanity CDN').not.toContain('https://core.sanity-cdn.com');
    });
  }
});
