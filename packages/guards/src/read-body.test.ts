import { describe, expect, it } from 'vitest';

import { MAX_BODY_BYTES, readBody } from './read-body';

const CHUNK = 16 * 1024;

/** A body streamed in chunks without a Content-Length (as chunked transfer sends it), counting what was pulled. */
function streamed(chunks: number, headers: Record<string, string> = {}) {
  const stats = { pulled: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (stats.pulled === chunks) return controller.close();
      stats.pulled += 1;
      controller.enqueue(new Uint8Array(CHUNK).fill(97));
    },
    cancel() {
      stats.cancelled = true;
    },
  });
  const request = new Request('http://localhost/', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);
  return { request, stats };
}

describe('readBody', () => {
  it('reads a body within the cap', async () => {
    const result = await readBody(new Request('http://localhost/', { method: 'POST', body: '{"_type":"x"}' }));
    expect(result.ok && new TextDecoder().decode(result.bytes)).toBe('{"_type":"x"}');
  });

  it('reads a body of exactly the cap', async () => {
    const { request } = streamed(MAX_BODY_BYTES / CHUNK);
    const result = await readBody(request);
    expect(result.ok && result.bytes.byteLength).toBe(MAX_BODY_BYTES);
  });

  it('refuses a declared length over the cap without reading a byte', async () => {
    const { request, stats } = streamed(1000, { 'content-length': String(300 * 1024 * 1024) });
    expect(await readBody(request)).toEqual({ ok: false, refusal: 'too-large' });
    expect(stats.pulled).toBeLessThanOrEqual(1); // a stream may pre-fill one chunk; nothing is consumed
    expect(request.bodyUsed).toBe(false);
  });

  it('stops reading a body without a length at the cap', async () => {
    const { request, stats } = streamed(1000);
    expect(await readBody(request)).toEqual({ ok: false, refusal: 'too-large' });
    // The cap plus the chunk that crossed it (and one the stream may have queued), not 1000 chunks.
    expect(stats.pulled).toBeLessThanOrEqual(MAX_BODY_BYTES / CHUNK + 2);
    expect(stats.cancelled).toBe(true);
  });

  it('refuses a Content-Length that is not a number', async () => {
    const { request } = streamed(1, { 'content-length': '12abc' });
    expect(await readBody(request)).toEqual({ ok: false, refusal: 'unreadable' });
  });

  it('answers unreadable when the stream breaks', async () => {
    const body = new ReadableStream<Uint8Array>({
      pull() {
        throw new Error('connection reset');
      },
    });
    const request = new Request('http://localhost/', { method: 'POST', body, duplex: 'half' } as RequestInit);
    expect(await readBody(request)).toEqual({ ok: false, refusal: 'unreadable' });
  });
});
