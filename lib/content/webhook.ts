import { isValidSignature, SIGNATURE_HEADER_NAME } from '@sanity/webhook';

export type WebhookResult = { ok: true; type: string } | { ok: false; status: 400 | 401; message: string };

/**
 * Checks a Sanity webhook call: signature first (with @sanity/webhook, which
 * next-sanity's parseBody wraps; parseBody parses before it judges, which would
 * turn a forged malformed body into a 400), then a JSON body naming a _type.
 */
export async function verifyWebhook(request: Request, secret: string | undefined): Promise<WebhookResult> {
  if (!secret) return { ok: false, status: 401, message: 'Webhook secret is not configured' };
  const signature = request.headers.get(SIGNATURE_HEADER_NAME);
  const payload = await request.text();
  if (!signature || !(await isValidSignature(payload, signature, secret).catch(() => false))) {
    return { ok: false, status: 401, message: 'Invalid signature' };
  }
  let body: unknown;
  try {
    body = JSON.parse(payload);
  } catch {
    return { ok: false, status: 400, message: 'Malformed body' };
  }
  const type = typeof body === 'object' && body !== null ? (body as { _type?: unknown })._type : undefined;
  return typeof type === 'string' ? { ok: true, type } : { ok: false, status: 400, message: 'Body must be a JSON object with a _type' };
}
