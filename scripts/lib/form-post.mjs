// The support form as a browser without JavaScript sends it: React's $ACTION_ fields read from the
// served page, posted as multipart form data; the answer is the page with the outcome. Used by
// scripts/load.mjs and the browser tests' fault suite (tests/e2e/faults.spec.ts).
import http from 'node:http';

import { GENERIC_FAILURE, REQUEST_SENT } from '../../lib/support/form-state.ts';

/** The feedback dialog's form, as the page serves it. */
export const FORM_ACTION = '/support#request-feedback';

/** One request on a keep-alive agent; never throws: failures come back as { error }. */
export function send(agent, url, { method = 'GET', headers = {}, body, timeoutMs = 30_000 } = {}) {
  const started = performance.now();
  return new Promise((resolve) => {
    const request = http.request(url, { method, agent, headers, timeout: timeoutMs }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode, text: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - started }),
      );
      response.on('error', (error) => resolve({ error: error.code || error.message, ms: performance.now() - started }));
    });
    request.on('timeout', () => request.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    request.on('error', (error) => resolve({ error: error.code || error.message, ms: performance.now() - started }));
    request.end(body);
  });
}

const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decode = (text) =>
  text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, entity) =>
    entity[0] === '#'
      ? String.fromCodePoint(entity[1].toLowerCase() === 'x' ? parseInt(entity.slice(2), 16) : Number(entity.slice(1)))
      : (ENTITIES[entity] ?? whole),
  );

/** What the browser would send for the feedback form untouched: [name, value] of every control. */
export async function loadForm(origin) {
  const answer = await send(undefined, `${origin}/support`);
  if (answer.status !== 200) throw new Error(`GET /support answered ${answer.status ?? answer.error}`);
  const start = answer.text.indexOf(`action="${FORM_ACTION}"`);
  if (start < 0) throw new Error(`no form with action ${FORM_ACTION} on /support`);
  const form = answer.text.slice(start, answer.text.indexOf('</form>', start));
  const controls = [];
  for (const [tag] of form.matchAll(/<(input|textarea)\b[^>]*>/g)) {
    const name = /\sname="([^"]*)"/.exec(tag)?.[1];
    if (!name) continue;
    const value = /\svalue="([^"]*)"/.exec(tag)?.[1] ?? '';
    controls.push([decode(name), decode(value)]);
  }
  return controls;
}

function multipart(fields) {
  const boundary = `----form${Math.random().toString(16).slice(2)}`;
  const parts = fields.map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name.replace(/"/g, '%22')}"\r\n\r\n${value}\r\n`,
  );
  return { body: Buffer.from(`${parts.join('')}--${boundary}--\r\n`), type: `multipart/form-data; boundary=${boundary}` };
}

/**
 * Posts the form with `fields` (email, subject, message) filled in. outcome: 'accepted' (the page says
 * it was sent), 'failed' (the page shows the generic failure) or 'error: …' (anything else).
 */
export async function postForm(agent, origin, controls, fields, { address = '127.0.0.1', timeoutMs } = {}) {
  const { body, type } = multipart(controls.map(([name, value]) => [name, fields[name] ?? value]));
  const answer = await send(agent, `${origin}/support`, {
    method: 'POST',
    body,
    timeoutMs,
    headers: { 'content-type': type, 'content-length': body.length, origin, accept: 'text/html', 'x-forwarded-for': address },
  });
  let outcome;
  if (answer.error) outcome = `error: ${answer.error}`;
  else if (answer.status !== 200) outcome = `error: HTTP ${answer.status}`;
  else if (answer.text.includes(REQUEST_SENT)) outcome = 'accepted';
  else if (answer.text.includes(GENERIC_FAILURE)) outcome = 'failed';
  else outcome = 'error: no outcome on the page';
  return { outcome, ms: answer.ms };
}
