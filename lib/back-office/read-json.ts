import 'server-only';

import { readBody, REFUSAL_STATUS } from '@school-site/guards';

/** The largest body the back office reads: an address and a cursor, with room to spare. */
export const MAX_OFFICE_BODY = 8 * 1024;

export type JsonRead = { ok: true; value: unknown } | { ok: false; status: number; message: string };

/**
 * A POST's JSON body, read up to MAX_OFFICE_BODY. JSON only: a form from another site (which a browser
 * may send anywhere without asking) is never read as a request of the office.
 */
export async function readJson(request: Request): Promise<JsonRead> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) return { ok: false, status: 415, message: 'The back office takes JSON bodies only.' };
  const body = await readBody(request, MAX_OFFICE_BODY);
  if (!body.ok) return { ok: false, status: REFUSAL_STATUS[body.refusal], message: 'The request body is too large or unreadable.' };
  try {
    return { ok: true, value: JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body.bytes)) };
  } catch {
    return { ok: false, status: 400, message: 'The request body is not JSON.' };
  }
}
