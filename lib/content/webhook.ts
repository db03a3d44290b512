import { decodeSignatureHeader, isValidSignature, SIGNATURE_HEADER_NAME } from '@sanity/webhook';

import { readBody, REFUSAL_STATUS } from '@school-site/guards';

/** How far a signature's timestamp may be from now, either way, before the call counts as a replay. */
export const SIGNATURE_WINDOW_MS = 5 * 60 * 1000;

export const WEBHOOK_REFUSALS = {
  noSecret: 'Webhook secret is not configured',
  noSignature: 'Missing signature',
  invalidSignature: 'Invalid signature',
  outsideWindow: 'Signature timestamp is more than 5 minutes away from now',
  replayed: 'This call was already received',
  tooLarge: 'Body is too large',
  unreadable: 'Body could not be read',
  malformed: 'Malformed body',
  noType: 'Body must be a JSON object with a _type',
} as const;

export type WebhookRefusal = (typeof WEBHOOK_REFUSALS)[keyof typeof WEBHOOK_REFUSALS];
export type WebhookResult =
  { ok: true; type: string; id: string | null; signature: string } | { ok: false; status: 400 | 401 | 409 | 413; message: WebhookRefusal };

const refuse = (status: 400 | 401 | 409 | 413, message: WebhookRefusal): WebhookResult => ({ ok: false, status, message });

/**
 * Signatures already accepted, each kept while its timestamp is inside the window: a captured call
 * cannot be sent again. Only correctly signed calls get in, so only the secret's holder can add
 * entries; the cap bounds the map even so.
 */
export class SeenSignatures implements ReplayMemory {
  private readonly expiries = new Map<string, number>();

  constructor(private readonly max = 1000) {}

  /** False if the signature was seen already; otherwise remembers it until `expiresAt`. */
  add(signature: string, expiresAt: number, now: number): boolean {
    for (const [key, expiry] of this.expiries) if (expiry <= now) this.expiries.delete(key);
    if (this.expiries.has(signature)) return false;
    // Insertion order is age order: past the cap the oldest goes.
    if (this.expiries.size >= this.max) this.expiries.delete(this.expiries.keys().next().value!);
    this.expiries.set(signature, expiresAt);
    return true;
  }

  /** Lets a call that was accepted but not applied (the content could not be rendered) come again when Sanity retries it. */
  forget(signature: string): void {
    this.expiries.delete(signature);
  }

  get size(): number {
    return this.expiries.size;
  }
}

/**
 * Where accepted signatures are kept: this process's SeenSignatures, or one shared by every instance
 * (lib/content/replay-memory.ts), which may need a round trip.
 */
export type ReplayMemory = {
  add(signature: string, expiresAt: number, now: number): boolean | Promise<boolean>;
  forget(signature: string): void | Promise<void>;
};

type Options = { seen?: ReplayMemory; now?: number };

/**
 * Checks a Sanity webhook call, cheapest refusal first: no secret or no signature header, or a
 * timestamp outside the window, is refused before a byte of the body is read; the body is read up to
 * the shared cap; then the signature (with @sanity/webhook, which next-sanity's parseBody wraps;
 * parseBody parses before it judges, which would turn a forged malformed body into a 400), a replay,
 * and last a JSON body naming a _type.
 */
export async function verifyWebhook(
  request: Request,
  secret: string | undefined,
  { seen, now = Date.now() }: Options = {},
): Promise<WebhookResult> {
  if (!secret) return refuse(401, WEBHOOK_REFUSALS.noSecret);
  const signature = request.headers.get(SIGNATURE_HEADER_NAME);
  if (!signature) return refuse(401, WEBHOOK_REFUSALS.noSignature);
  let timestamp: number;
  try {
    timestamp = decodeSignatureHeader(signature).timestamp;
  } catch {
    return refuse(401, WEBHOOK_REFUSALS.invalidSignature);
  }
  if (Math.abs(now - timestamp) > SIGNATURE_WINDOW_MS) return refuse(401, WEBHOOK_REFUSALS.outsideWindow);

  const body = await readBody(request);
  if (!body.ok)
    return refuse(REFUSAL_STATUS[body.refusal], body.refusal === 'too-large' ? WEBHOOK_REFUSALS.tooLarge : WEBHOOK_REFUSALS.unreadable);
  const payload = new TextDecoder().decode(body.bytes);
  if (!(await isValidSignature(payload, signature, secret).catch(() => false))) return refuse(401, WEBHOOK_REFUSALS.invalidSignature);
  if (seen && !(await seen.add(signature, timestamp + SIGNATURE_WINDOW_MS, now))) return refuse(409, WEBHOOK_REFUSALS.replayed);

  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return refuse(400, WEBHOOK_REFUSALS.malformed);
  }
  const { _type: type, _id: id } = typeof parsed === 'object' && parsed !== null ? (parsed as { _type?: unknown; _id?: unknown }) : {};
  if (typeof type !== 'string') return refuse(400, WEBHOOK_REFUSALS.noType);
  return { ok: true, type, id: typeof id === 'string' ? id : null, signature };
}
