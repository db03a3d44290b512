/**
 * The site's forms posted over HTTP as a browser without JavaScript posts them: load the page, keep the
 * form's controls (React's $ACTION_ fields among them), send multipart/form-data to the page; the
 * answer is the page with the outcome. One implementation for the load test, the measuring scripts
 * and the browser tests.
 */
import http from 'node:http';

import { GENERIC_FAILURE, REQUEST_SENT } from './seed-copy.ts';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Named, decimal and hex character references decoded, as a browser reads attribute values and text. */
export const decodeEntities = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, entity: string) => {
    if (entity[0] !== '#') return ENTITIES[entity] ?? whole;
    return String.fromCodePoint(entity[1] === 'x' || entity[1] === 'X' ? parseInt(entity.slice(2), 16) : Number(entity.slice(1)));
  });

/** The decoded value of attribute `name` of one start tag (double-quoted, as React writes them). */
export const attribute = (tag: string, name: string) => {
  const match = new RegExp(`\\s${name.replace(/\$/g, '\\$')}="([^"]*)"`).exec(tag);
  return match ? decodeEntities(match[1]!) : undefined;
};

/** The forms of the site: the page each is on, its `action` attribute, and where its status line is. */
export const FORMS = {
  support: { page: '/support', action: '/support#request-feedback', region: 'id="request-feedback"', end: '</dialog>' },
  subscribe: { page: '/', action: '/#stay-updated', region: 'id="stay-updated"', end: '</section>' },
} as const;
export type FormName = keyof typeof FORMS;
export type Controls = [string, string][];

const loaded = new Map<string, Promise<Controls>>();

/**
 * The controls of form `name` as the page serves them: [name, value] in document order. Read once per
 * origin (they name the build's action, the same after a restart); a failed read is tried again next time.
 */
export function formControls(origin: string, name: FormName = 'support'): Promise<Controls> {
  const key = `${new URL(origin).origin} ${name}`;
  const controls =
    loaded.get(key) ??
    readControls(origin, name).catch((error: unknown) => {
      loaded.delete(key);
      throw error;
    });
  loaded.set(key, controls);
  return controls;
}

async function readControls(origin: string, name: FormName): Promise<Controls> {
  const { page, action } = FORMS[name];
  const response = await fetch(new URL(page, origin));
  const html = await response.text();
  const start = html.indexOf(`action="${action}"`);
  if (response.status !== 200 || start < 0) throw new Error(`no form ${action} on ${page} (HTTP ${response.status})`);
  const controls: Controls = [];
  for (const [tag] of html.slice(start, html.indexOf('</form>', start)).matchAll(/<(input|textarea)\b[^>]*>/g)) {
    const control = attribute(tag, 'name');
    if (control) controls.push([control, attribute(tag, 'value') ?? '']);
  }
  return controls;
}

/** The status line a visitor sees in form `name`'s part of the answered page. */
export function statusLine(html: string, name: FormName): string {
  const { region, end } = FORMS[name];
  const start = html.indexOf(region);
  const part = start >= 0 ? html.slice(start, html.indexOf(end, start)) : '';
  const match = /role="status"[^>]*>([\s\S]*?)<\/p>/.exec(part);
  return match ? decodeEntities(match[1]!.replace(/<[^>]+>/g, '')).trim() : '';
}

/** What the browser sends: every control of the page with the visitor's `fields` in place of its values. */
export async function encodeForm(controls: Controls, fields: Record<string, string>) {
  const data = new FormData();
  for (const [control, value] of controls) if (!(control in fields)) data.append(control, value);
  for (const [control, value] of Object.entries(fields)) data.append(control, value);
  const encoded = new Response(data);
  return { body: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type')! };
}

/** An answer; a request that failed on the way has status 0 and `error` (a code such as ECONNRESET or TIMEOUT). */
export type FormAnswer = { status: number; html: string; statusText: string; ms: number; error?: string };
type PostOptions = { agent?: http.Agent; headers?: Record<string, string>; localAddress?: string; timeoutMs?: number };

/**
 * Posts form `name` with the visitor's `fields`. `localAddress` sends from another loopback address
 * (127.0.0.0/8 all reaches this machine): a distinct real TCP peer. Never throws.
 */
export async function postForm(
  origin: string,
  name: FormName,
  fields: Record<string, string>,
  options: PostOptions = {},
): Promise<FormAnswer> {
  const { body, contentType } = await encodeForm(await formControls(origin, name), fields);
  const url = new URL(FORMS[name].page, origin);
  const headers = {
    origin: url.origin,
    accept: 'text/html',
    'content-type': contentType,
    'content-length': String(body.length),
    ...options.headers,
  };
  const started = performance.now();
  return new Promise((resolve) => {
    const failed = (error: NodeJS.ErrnoException) =>
      resolve({ status: 0, html: '', statusText: '', ms: performance.now() - started, error: error.code ?? error.message });
    const request = http.request(
      url,
      { method: 'POST', headers, agent: options.agent, localAddress: options.localAddress, timeout: options.timeoutMs ?? 30_000 },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const html = Buffer.concat(chunks).toString('utf8');
          resolve({ status: response.statusCode ?? 0, html, statusText: statusLine(html, name), ms: performance.now() - started });
        });
        response.on('error', failed);
      },
    );
    request.on('timeout', () => request.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    request.on('error', failed);
    request.end(body);
  });
}

export type Outcome = 'accepted' | 'failed' | `error: ${string}`;

/** What a support form answer told the visitor: sent, the generic failure, or anything else (an error). */
export function outcome(answer: FormAnswer): Outcome {
  if (answer.error) return `error: ${answer.error}`;
  if (answer.status !== 200) return `error: HTTP ${answer.status}`;
  // The status line only: every text of the form, its messages included, is also in the page's data.
  if (answer.statusText === REQUEST_SENT) return 'accepted';
  if (answer.statusText === GENERIC_FAILURE) return 'failed';
  return 'error: no outcome on the page';
}
