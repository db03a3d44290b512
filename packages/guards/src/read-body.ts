/**
 * The one way a route or the proxy reads a request body: never more than a small cap, so a client
 * cannot make the server hold a body it sent to fill memory. A declared Content-Length over the cap is
 * refused before a byte is read; a body without one (chunked) is read only up to the cap.
 */

// Four form fields at their limits (254 + 200 + 5000 characters, up to 4 bytes each, plus React's
// action fields) and a webhook's {_id, _type} stay far below this.
export const MAX_BODY_BYTES = 64 * 1024;

export type BodyRefusal = 'too-large' | 'unreadable';
export type BodyRead = { ok: true; bytes: Uint8Array<ArrayBuffer> } | { ok: false; refusal: BodyRefusal };

export const REFUSAL_STATUS = { 'too-large': 413, unreadable: 400 } as const satisfies Record<BodyRefusal, number>;

/** The declared length, null when absent; 'unreadable' when it is not a plain number of bytes. */
function declaredLength(headers: Headers): number | null | 'unreadable' {
  const value = headers.get('content-length');
  if (value === null) return null;
  return /^\s*\d+\s*$/.test(value) ? Number(value) : 'unreadable';
}

export async function readBody(request: Request, limit = MAX_BODY_BYTES): Promise<BodyRead> {
  const declared = declaredLength(request.headers);
  if (declared === 'unreadable') return { ok: false, refusal: 'unreadable' };
  if (declared !== null && declared > limit) return { ok: false, refusal: 'too-large' };
  if (!request.body) return { ok: true, bytes: new Uint8Array() };

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        // Stop here: the rest is never read into memory.
        await reader.cancel().catch(() => {});
        return { ok: false, refusal: 'too-large' };
      }
      chunks.push(value);
    }
  } catch {
    // The client went away or sent a broken stream.
    return { ok: false, refusal: 'unreadable' };
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, bytes };
}
