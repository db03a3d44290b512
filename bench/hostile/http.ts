/**
 * The two ways the hostile probe sends a request. testkit has only the form post (forms.ts postForm),
 * which sends a whole encoded form; a 300 MB body has to be streamed, and a probe must see any status.
 */
import http from 'node:http';

import { memory } from '../../testkit/processes.ts';
import { MB, type BigPostProbe, type Probe } from './probes.ts';

/** An answer; status 0 with `error` (a code such as ECONNRESET) when the request failed on the way. */
export type Answer = { status: number; headers?: Headers; error?: string };

/** Sends `probe` to `origin` and reads the answer through. Never throws: a failure is an answer too. */
export async function send(origin: string, probe: Pick<Probe, 'path' | 'init'>): Promise<Answer> {
  try {
    const response = await fetch(origin + probe.path, { redirect: 'manual', ...probe.init });
    await response.arrayBuffer();
    return { status: response.status, headers: response.headers };
  } catch (error) {
    const cause = error instanceof Error ? (error.cause as NodeJS.ErrnoException | undefined) : undefined;
    return { status: 0, error: cause?.code ?? String(error) };
  }
}

export type BigPostAnswer = { status: number; ms: number | null; peakRssBytes: number };

/**
 * Streams `probe.bytes` of body as fast as the server takes them, and keeps sending after an answer,
 * as a hostile client would. Samples the server's RSS meanwhile: its peak is what the body cost.
 */
export function bigPost(server: { origin: string; pid: number }, probe: BigPostProbe): Promise<BigPostAnswer> {
  return new Promise((resolve) => {
    const started = performance.now();
    let answer: { status: number; ms: number } | null = null;
    let peak = 0;
    const sampler = setInterval(() => {
      try {
        peak = Math.max(peak, memory(server.pid).rssBytes);
      } catch {
        // The server is gone: the row says so.
      }
    }, 25);
    const request = http.request(new URL(probe.path, server.origin), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: server.origin,
        ...(probe.chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(probe.bytes) }),
        ...probe.headers,
      },
    });
    request.on('response', (response) => {
      answer = { status: response.statusCode ?? 0, ms: performance.now() - started };
      response.resume();
    });
    // A server that refuses closes the connection under the body still being sent: expected, not a failure.
    request.on('error', () => {});
    request.on('close', () => {
      clearInterval(sampler);
      resolve({ status: answer?.status ?? 0, ms: answer?.ms ?? null, peakRssBytes: peak });
    });
    const chunk = Buffer.alloc(MB, ' ');
    let sent = 0;
    const write = () => {
      while (sent < probe.bytes) {
        sent += chunk.byteLength;
        if (!request.write(chunk)) return void request.once('drain', write);
      }
      request.end();
    };
    write();
  });
}
