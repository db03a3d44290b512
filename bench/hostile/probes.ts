/**
 * The hostile requests of `npm run bench -- hostile`, each with the answer the build is designed to
 * give it: the statuses are the ones tests/e2e/hostile-traffic.spec.ts and hostile-input.spec.ts pin,
 * so a row missing its target here is a behaviour those tests would catch too.
 */
import { encodeSignatureHeader, SIGNATURE_HEADER_NAME } from '@sanity/webhook';

import { REFUSALS } from '../../lib/http/refusals.ts';

export const MB = 1024 * 1024;

/** One request sent with fetch, and the status the build is designed to answer it with. */
export type Probe = { name: string; path: string; init?: RequestInit; status: number };

/** A body far over every limit, streamed as fast as the server takes it (http.ts bigPost). */
export type BigPostProbe = {
  name: string;
  path: string;
  bytes: number;
  /** No Content-Length: the server can only find the size by reading. */
  chunked?: boolean;
  headers?: Record<string, string>;
  status: number;
};

/** A signed webhook call, sent as many times as `statuses` has entries: a second send is a replay. */
export type SignedCall = { name: string; signedAt: () => number; statuses: number[] };

/** The security headers every response carries, refusals and redirects included. */
export const SECURITY_HEADERS = [
  'content-security-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-frame-options',
  'referrer-policy',
];

export const WEBHOOK = '/api/revalidate';

export async function bigPosts(): Promise<BigPostProbe[]> {
  const bytes = 300 * MB;
  return [
    { name: '300 MB unsigned POST /api/revalidate (Content-Length)', path: WEBHOOK, bytes, status: 401 },
    {
      name: '300 MB chunked POST /api/revalidate, forged signature',
      path: WEBHOOK,
      bytes,
      chunked: true,
      // A signature header gets the caller past the first refusal: only the body cap stops it.
      headers: { [SIGNATURE_HEADER_NAME]: await encodeSignatureHeader('{}', Date.now(), 'forged') },
      status: 413,
    },
    {
      name: '300 MB POST /support (a form post, through the proxy)',
      path: '/support',
      bytes,
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      status: REFUSALS.tooLarge.status,
    },
  ];
}

export const SIGNED_CALLS: SignedCall[] = [
  { name: 'signed now', signedAt: () => Date.now(), statuses: [200, 409] },
  { name: 'signed in 2021', signedAt: () => Date.UTC(2021, 5, 1), statuses: [401, 401] },
  { name: 'signed for 2035', signedAt: () => Date.UTC(2035, 5, 1), statuses: [401, 401] },
];

const get = (path: string, status: number): Probe => ({ name: `GET ${path}`, path, status });

/** Pages, 404s, redirects and refusals: every kind of response must carry SECURITY_HEADERS. */
export function headerProbes(origin: string): Probe[] {
  return [
    get('/', 200),
    get('/support', 200),
    get('/privacy', 200),
    get('/nope', 404),
    // Paths that merely start with "studio" are not the Studio.
    get('/studiox', 404),
    get('/studio.html', 404),
    get('/studio%2fabc', 404),
    get('/studio/', 308),
    get('/studio', 200),
    get('/studio/structure/privacyPolicy', 200),
    get(WEBHOOK, 405),
    get('/api/draft-mode/enable', 401),
    get('/api/draft-mode/disable', 307),
    {
      name: 'cross-site POST /support',
      path: '/support',
      init: {
        method: 'POST',
        headers: { origin: 'https://evil.example', 'content-type': 'multipart/form-data; boundary=x' },
        body: '--x--',
      },
      status: REFUSALS.crossSite.status,
    },
    {
      name: 'text/plain POST /support',
      path: '/support',
      init: { method: 'POST', headers: { origin, 'content-type': 'text/plain' }, body: 'x' },
      status: REFUSALS.notAForm.status,
    },
  ];
}

const BOUNDARY = '----probe0123456789';
const multipart = (spelling: string) => `${spelling}; boundary=${BOUNDARY}`;
const part = (value: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="0"\r\n\r\n${value}\r\n--${BOUNDARY}--\r\n`;

/**
 * Server-action calls as a script crafts them, with the support action's real id: Next's own handler
 * answers most of these with a 500, which the proxy turns into a 4xx page.
 */
export function actionCalls(origin: string, actionId: string): Probe[] {
  const call = (name: string, contentType: string | undefined, body: BodyInit, status: number): Probe => ({
    name,
    path: '/support',
    init: {
      method: 'POST',
      headers: { origin, 'next-action': actionId, ...(contentType ? { 'content-type': contentType } : {}) },
      body,
    },
    status,
  });
  const notAForm = REFUSALS.notAForm.status;
  return [
    // Next matches only the lowercase spelling: any other is not a form to Next.
    call('Multipart/Form-Data', multipart('Multipart/Form-Data'), part('[{},"$K1"]'), notAForm),
    call('text/plain', 'text/plain', 'email=a@example.com', notAForm),
    call('JSON', 'application/json', '[{},{"email":"a@example.com"}]', notAForm),
    call('urlencoded', 'application/x-www-form-urlencoded', 'email=a@example.com', notAForm),
    // A Uint8Array body gets no Content-Type from fetch.
    call('no content type', undefined, new Uint8Array(Buffer.from('x')), notAForm),
    // A well-formed form: it reaches the action, which answers without a form to read.
    call('multipart, undefined arguments', multipart('multipart/form-data'), part('["$undefined","$undefined"]'), 200),
    // Last: a server that fails this one may reset the connection under the next.
    call('2 MB text/plain', 'text/plain', 'x'.repeat(2 * MB), REFUSALS.tooLarge.status),
  ];
}

/** Characters that make an email look like another: the support form refuses each with its message. */
export const INVISIBLE_IN_EMAIL: { name: string; character: string }[] = [
  { name: 'U+0085', character: '\u0085' },
  { name: 'U+202E', character: '\u202e' },
  { name: 'U+0001', character: '\u0001' },
  { name: 'U+200B', character: '\u200b' },
];
