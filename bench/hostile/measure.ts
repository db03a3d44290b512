#!/usr/bin/env node
/**
 * npm run probe:hostile — issue 11's hostile traffic against the production build, with the figures
 * the tests do not assert: the server's RSS and answer time for a 300 MB webhook post, and the files
 * 1,000 random /studio paths add. It also lists the status codes of the other rows (replays, headers,
 * crafted action calls, emails). Runs `next start` on the build in NEXT_DIST_DIR (default .next) on a
 * free loopback port with a throwaway store; run it on an older build to get that build's figures.
 *
 *   STUDIO_PATHS   how many random /studio paths (default 1000)
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

import { encodeSignatureHeader, SIGNATURE_HEADER_NAME } from '@sanity/webhook';

import { startAppServer } from '../testkit/app-server.ts';
import { APP_ROOT as ROOT } from '../testkit/paths.ts';
import { formControls, outcome, postForm } from '../testkit/forms.ts';

const DIST_DIR = path.resolve(ROOT, process.env.NEXT_DIST_DIR || '.next');
const STUDIO_PATHS = Number(process.env.STUDIO_PATHS || 1000);
const SECRET = randomBytes(16).toString('hex');
const MB = 1024 * 1024;

/** RSS in bytes of the server process. */
async function rss(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) * 1024;
}

async function startServer() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'hostile-probe-'));
  // The server's log, counted: what a flood of refused calls writes.
  let logLines = 0;
  const server = await startAppServer(
    { DATA_DIR: dataDir, SANITY_REVALIDATE_SECRET: SECRET, RATE_LIMIT_MAX: '100000' },
    { onLine: () => (logLines += 1) },
  );
  const stop = async () => {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
  return { origin: server.origin, pid: server.pid, stop, logLines: () => logLines };
}

/**
 * Streams `bytes` of body (declared in Content-Length, or chunked when `chunked`) as fast as the server
 * takes them, and keeps sending after an answer, as a hostile client would. Samples the server's RSS.
 */
function bigPost(server, requestPath, bytes, { headers = {}, chunked = false } = {}) {
  return new Promise((resolve) => {
    const started = performance.now();
    let answer = null;
    let peak = 0;
    const sampler = setInterval(
      () =>
        rss(server.pid).then(
          (value) => (peak = Math.max(peak, value)),
          () => {},
        ),
      25,
    );
    const finish = () => {
      clearInterval(sampler);
      resolve({ ...answer, peak });
    };
    const request = http.request(new URL(requestPath, server.origin), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: server.origin,
        ...(chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': bytes }),
        ...headers,
      },
    });
    request.on('response', (response) => {
      answer = { status: response.statusCode, ms: performance.now() - started };
      response.resume();
    });
    request.on('error', () => {});
    request.on('close', finish);
    const chunk = Buffer.alloc(MB, ' ');
    let sent = 0;
    const send = () => {
      while (sent < bytes) {
        sent += chunk.byteLength;
        if (!request.write(chunk)) return void request.once('drain', send);
      }
      request.end();
    };
    send();
  });
}

async function filesUnder(dir) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
  const sizes = await Promise.all(
    files.map((file) =>
      stat(file).then(
        (info) => info.size,
        () => 0,
      ),
    ),
  );
  return { count: files.length, bytes: sizes.reduce((sum, size) => sum + size, 0) };
}

const mib = (value) => `${(value / MB).toFixed(0)} MB`;
const tally = (statuses) =>
  Object.entries(statuses.reduce((counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {}))
    .map(([status, count]) => `${count}× ${status}`)
    .join(', ');

/** Each 300 MB post on a fresh server, so one post's memory does not hide the next one's. */
async function bigPostRows() {
  const rows = [];
  for (const [name, requestPath, options] of [
    ['300 MB unsigned POST /api/revalidate (Content-Length)', '/api/revalidate', {}],
    [
      '300 MB chunked POST /api/revalidate, forged signature',
      '/api/revalidate',
      { chunked: true, headers: { [SIGNATURE_HEADER_NAME]: await encodeSignatureHeader('{}', Date.now(), 'forged') } },
    ],
    [
      '300 MB POST /support (a form post, through the proxy)',
      '/support',
      { headers: { 'content-type': 'multipart/form-data; boundary=x' } },
    ],
  ]) {
    const server = await startServer();
    try {
      await fetch(`${server.origin}/support`).then((response) => response.text());
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const before = await rss(server.pid);
      const result = await bigPost(server, requestPath, 300 * MB, options);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const after = await rss(server.pid);
      rows.push(
        `${name}: ${result.status} after ${result.ms?.toFixed(0)} ms; RSS ${mib(before)} before, peak ${mib(result.peak)}, ${mib(after)} 2 s after (growth ${mib(Math.max(result.peak, after) - before)})`,
      );
    } finally {
      await server.stop();
    }
  }
  return rows;
}

async function logRow(server) {
  const before = server.logLines();
  for (let i = 0; i < 1000; i += 1) {
    const response = await fetch(`${server.origin}/api/revalidate`, { method: 'POST', body: '{}' });
    await response.arrayBuffer();
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  return `1000 unsigned webhook calls wrote ${server.logLines() - before} log lines`;
}

async function replayRow(server) {
  const payload = JSON.stringify({ _type: 'privacyPolicy', _id: 'privacyPolicy' });
  const send = async (timestamp) => {
    const signature = await encodeSignatureHeader(payload, timestamp, SECRET);
    const post = () =>
      fetch(`${server.origin}/api/revalidate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SIGNATURE_HEADER_NAME]: signature },
        body: payload,
      });
    return [(await post()).status, (await post()).status];
  };
  const [fresh, replayed] = await send(Date.now());
  const [old] = await send(Date.UTC(2021, 5, 1));
  const [future] = await send(Date.UTC(2035, 5, 1));
  return `signed call ${fresh}, same call replayed ${replayed}, signed in 2021 ${old}, signed for 2035 ${future}`;
}

async function studioRow(server) {
  await fetch(`${server.origin}/studio`).then((response) => response.text());
  const before = await filesUnder(DIST_DIR);
  const statuses = [];
  for (let i = 0; i < STUDIO_PATHS; i += 1) {
    const response = await fetch(`${server.origin}/studio/${randomBytes(6).toString('hex')}`);
    await response.arrayBuffer();
    statuses.push(response.status);
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  const after = await filesUnder(DIST_DIR);
  return `${STUDIO_PATHS} random /studio paths (${tally(statuses)}): ${after.count - before.count} files, ${((after.bytes - before.bytes) / 1024).toFixed(0)} KB added under ${path.relative(ROOT, DIST_DIR)}`;
}

const SECURITY_HEADERS = [
  'content-security-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-frame-options',
  'referrer-policy',
];

async function headersRow(server) {
  const requests = [
    ...[
      '/',
      '/support',
      '/privacy',
      '/nope',
      '/studiox',
      '/studio.html',
      '/studio%2fabc',
      '/studio/',
      '/studio',
      '/studio/structure/privacyPolicy',
      '/api/revalidate',
      '/api/draft-mode/enable',
      '/api/draft-mode/disable',
    ].map((requestPath) => [requestPath, {}]),
    [
      '/support (cross-site POST)',
      { method: 'POST', headers: { origin: 'https://evil.example', 'content-type': 'multipart/form-data; boundary=x' }, body: '--x--' },
    ],
    ['/support (text/plain POST)', { method: 'POST', headers: { origin: server.origin, 'content-type': 'text/plain' }, body: 'x' }],
  ];
  const missing = [];
  for (const [label, init] of requests) {
    const response = await fetch(server.origin + label.split(' ')[0], { redirect: 'manual', ...init });
    await response.arrayBuffer();
    const absent = SECURITY_HEADERS.filter((name) => !response.headers.has(name));
    if (absent.length)
      missing.push(`${label} ${response.status} lacks ${absent.length === SECURITY_HEADERS.length ? 'all' : absent.join(', ')}`);
  }
  return `${requests.length - missing.length} of ${requests.length} responses carry all five${missing.length ? `; ${missing.join('; ')}` : ''}`;
}

async function actionRow(server) {
  const id = JSON.parse((await formControls(server.origin)).find(([name]) => /^\$ACTION_\d+:0$/.test(name))[1]).id;
  const post = async (contentType, body, action = true) => {
    const headers = {
      origin: server.origin,
      ...(contentType ? { 'content-type': contentType } : {}),
      ...(action ? { 'next-action': id } : {}),
    };
    try {
      const response = await fetch(`${server.origin}/support`, { method: 'POST', headers, body });
      await response.arrayBuffer();
      return response.status;
    } catch (error) {
      return `no answer (${error.cause?.code ?? error.message})`;
    }
  };
  const multipart = (spelling) => `${spelling}; boundary=----probe0123456789`;
  const part = (value) =>
    `------probe0123456789\r\nContent-Disposition: form-data; name="0"\r\n\r\n${value}\r\n------probe0123456789--\r\n`;
  const statuses = {
    'Multipart/Form-Data': await post(multipart('Multipart/Form-Data'), part('[{},"$K1"]')),
    'text/plain': await post('text/plain', 'email=a@example.com'),
    JSON: await post('application/json', '[{},{"email":"a@example.com"}]'),
    urlencoded: await post('application/x-www-form-urlencoded', 'email=a@example.com'),
    'no content type': await post(undefined, new Uint8Array(Buffer.from('x'))),
    'multipart, undefined arguments': await post(multipart('multipart/form-data'), part('["$undefined","$undefined"]')),
    // Last: a server that fails this one may reset the connection under the next.
    '2 MB text/plain': await post('text/plain', 'x'.repeat(2 * MB)),
  };
  const fives = Object.values(statuses).filter((status) => typeof status === 'number' && status >= 500).length;
  return `${Object.entries(statuses)
    .map(([name, status]) => `${name} ${status}`)
    .join(', ')} (${fives} answers of 500)`;
}

async function emailRow(server) {
  const results = [];
  for (const [name, character] of [
    ['U+0085', '\u0085'],
    ['U+202E', '\u202e'],
    ['U+0001', '\u0001'],
    ['U+200B', '\u200b'],
  ]) {
    const answer = await postForm(server.origin, 'support', {
      email: `pro${character}be@example.com`,
      subject: `Probe ${name}`,
      message: 'Probe.',
    });
    results.push(`${name} ${answer.status} ${outcome(answer) === 'accepted' ? 'accepted' : 'refused'}`);
  }
  return results.join(', ');
}

console.log(`hostile probe of the build in ${path.relative(ROOT, DIST_DIR)}`);
for (const line of await bigPostRows()) console.log(`webhook  ${line}`);
const server = await startServer();
try {
  for (const [title, row] of [
    ['logs', logRow],
    ['replay', replayRow],
    ['studio', studioRow],
    ['headers', headersRow],
    ['actions', actionRow],
    ['emails', emailRow],
  ]) {
    const result = await row(server);
    for (const line of [result].flat()) console.log(`${title.padEnd(8)} ${line}`);
  }
} finally {
  await server.stop();
}
