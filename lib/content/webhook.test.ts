import { encodeSignatureHeader, SIGNATURE_HEADER_NAME } from '@sanity/webhook';
import { describe, expect, it } from 'vitest';

import { MAX_BODY_BYTES } from '@school-site/guards';

import { tagsForDocumentType } from './tags';
import { SeenSignatures, SIGNATURE_WINDOW_MS, verifyWebhook, WEBHOOK_REFUSALS } from './webhook';

const SECRET = 'unit-test-secret';

async function signedRequest(payload: string, secret = SECRET, headers: Record<string, string> = {}, timestamp = Date.now()) {
  const signature = await encodeSignatureHeader(payload, timestamp, secret);
  return new Request('http://localhost/api/revalidate', {
    method: 'POST',
    headers: { [SIGNATURE_HEADER_NAME]: signature, ...headers },
    body: payload,
  });
}

/** A request whose body counts how often it is pulled: 0 means the body was never read. */
function watchedRequest(headers: Record<string, string>, chunks = 1000) {
  const stats = { pulled: 0 };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (stats.pulled === chunks) return controller.close();
      stats.pulled += 1;
      controller.enqueue(new Uint8Array(16 * 1024).fill(32));
    },
  });
  const request = new Request('http://localhost/api/revalidate', { method: 'POST', headers, body, duplex: 'half' } as RequestInit);
  return { request, stats };
}

describe('verifyWebhook', () => {
  it('accepts a correctly signed body and reads its type and id', async () => {
    const request = await signedRequest('{"_type":"privacyPolicy","_id":"privacyPolicy-es"}');
    const signature = request.headers.get(SIGNATURE_HEADER_NAME);
    expect(await verifyWebhook(request, SECRET)).toEqual({ ok: true, type: 'privacyPolicy', id: 'privacyPolicy-es', signature });
    const noId = await signedRequest('{"_type":"privacyPolicy","_id":7}');
    expect(await verifyWebhook(noId, SECRET)).toMatchObject({ ok: true, type: 'privacyPolicy', id: null });
  });

  it('refuses a signature made with another secret', async () => {
    const result = await verifyWebhook(await signedRequest('{"_type":"privacyPolicy"}', 'wrong'), SECRET);
    expect(result).toMatchObject({ ok: false, status: 401 });
  });

  it('refuses a body changed after signing', async () => {
    const signed = await signedRequest('{"_type":"privacyPolicy"}');
    const tampered = new Request(signed.url, { method: 'POST', headers: signed.headers, body: '{"_type":"landingPage"}' });
    expect(await verifyWebhook(tampered, SECRET)).toMatchObject({ ok: false, status: 401 });
  });

  it('refuses a call without the signature header', async () => {
    const request = new Request('http://localhost/api/revalidate', { method: 'POST', body: '{"_type":"privacyPolicy"}' });
    expect(await verifyWebhook(request, SECRET)).toMatchObject({ ok: false, status: 401 });
  });

  it('refuses everything when no secret is configured', async () => {
    expect(await verifyWebhook(await signedRequest('{"_type":"privacyPolicy"}'), undefined)).toMatchObject({ ok: false, status: 401 });
  });

  it('answers 400 for a correctly signed body that is not JSON or has no _type', async () => {
    expect(await verifyWebhook(await signedRequest('{"_type":'), SECRET)).toMatchObject({ ok: false, status: 400 });
    expect(await verifyWebhook(await signedRequest('[1,2]'), SECRET)).toMatchObject({ ok: false, status: 400 });
  });

  it('answers 401, not 400, for a malformed body with a forged signature', async () => {
    expect(await verifyWebhook(await signedRequest('{"_type":', 'forged'), SECRET)).toMatchObject({ ok: false, status: 401 });
  });

  it('refuses a call without the signature header before reading its body', async () => {
    const { request, stats } = watchedRequest({});
    expect(await verifyWebhook(request, SECRET)).toEqual({ ok: false, status: 401, message: WEBHOOK_REFUSALS.noSignature });
    expect(stats.pulled).toBeLessThanOrEqual(1);
    expect(request.bodyUsed).toBe(false);
  });

  it.each([
    ['more than 5 minutes old', -SIGNATURE_WINDOW_MS - 1000],
    ['more than 5 minutes ahead', SIGNATURE_WINDOW_MS + 1000],
    ['from 2021', Date.UTC(2021, 0, 1) - Date.now()],
    ['from 2035', Date.UTC(2035, 0, 1) - Date.now()],
  ])('refuses a correct signature whose timestamp is %s, before reading the body', async (_name, offset) => {
    const payload = '{"_type":"privacyPolicy"}';
    const signature = await encodeSignatureHeader(payload, Date.now() + offset, SECRET);
    const { request, stats } = watchedRequest({ [SIGNATURE_HEADER_NAME]: signature });
    expect(await verifyWebhook(request, SECRET)).toEqual({ ok: false, status: 401, message: WEBHOOK_REFUSALS.outsideWindow });
    expect(stats.pulled).toBeLessThanOrEqual(1);
    expect(request.bodyUsed).toBe(false);
    // The same call inside the window is accepted: it is the timestamp that is refused.
    const inWindow = await signedRequest(payload, SECRET, {}, Date.now() + Math.sign(offset) * (SIGNATURE_WINDOW_MS - 10_000));
    expect(await verifyWebhook(inWindow, SECRET)).toMatchObject({ ok: true, type: 'privacyPolicy' });
  });

  it('answers 413 for a declared length over the cap without reading the body', async () => {
    const signature = await encodeSignatureHeader('{}', Date.now(), SECRET);
    const { request, stats } = watchedRequest({ [SIGNATURE_HEADER_NAME]: signature, 'content-length': String(MAX_BODY_BYTES + 1) });
    expect(await verifyWebhook(request, SECRET)).toEqual({ ok: false, status: 413, message: WEBHOOK_REFUSALS.tooLarge });
    expect(stats.pulled).toBeLessThanOrEqual(1);
  });

  it('answers 413 for a body without a length once it passes the cap, reading no further', async () => {
    const signature = await encodeSignatureHeader('{}', Date.now(), SECRET);
    const { request, stats } = watchedRequest({ [SIGNATURE_HEADER_NAME]: signature });
    expect(await verifyWebhook(request, SECRET)).toEqual({ ok: false, status: 413, message: WEBHOOK_REFUSALS.tooLarge });
    expect(stats.pulled).toBeLessThanOrEqual(MAX_BODY_BYTES / (16 * 1024) + 2);
  });

  it('refuses a correctly signed call sent a second time', async () => {
    const seen = new SeenSignatures();
    const payload = '{"_type":"landingPage"}';
    const timestamp = Date.now();
    expect(await verifyWebhook(await signedRequest(payload, SECRET, {}, timestamp), SECRET, { seen })).toMatchObject({
      ok: true,
      type: 'landingPage',
    });
    expect(await verifyWebhook(await signedRequest(payload, SECRET, {}, timestamp), SECRET, { seen })).toEqual({
      ok: false,
      status: 409,
      message: WEBHOOK_REFUSALS.replayed,
    });
    // A new call with the same body carries a new timestamp, so a new signature.
    expect(await verifyWebhook(await signedRequest(payload, SECRET, {}, timestamp + 1), SECRET, { seen })).toMatchObject({
      ok: true,
      type: 'landingPage',
    });
  });

  it('remembers nothing a forged call sends', async () => {
    const seen = new SeenSignatures();
    for (let i = 0; i < 50; i += 1) await verifyWebhook(await signedRequest(`{"_type":"x${i}"}`, 'forged'), SECRET, { seen });
    expect(seen.size).toBe(0);
  });
});

describe('SeenSignatures', () => {
  it('forgets a signature once its window has passed, and holds at most its cap', () => {
    const seen = new SeenSignatures(3);
    expect(seen.add('a', 100, 0)).toBe(true);
    expect(seen.add('a', 100, 50)).toBe(false);
    expect(seen.add('a', 200, 100)).toBe(true);
    for (const key of ['b', 'c', 'd', 'e']) seen.add(key, 1000, 150);
    expect(seen.size).toBe(3);
  });
});

describe('tagsForDocumentType', () => {
  it.each([
    ['siteSettings', ['siteSettings']],
    ['landingPage', ['landingPage']],
    ['supportPage', ['supportPage']],
    ['privacyPolicy', ['privacyPolicy']],
    // The record of versions is shown by the policy's pages.
    ['privacyPolicyVersion', ['privacyPolicy']],
    ['sanity.imageAsset', []],
    [undefined, []],
  ])('%s refreshes %j', (type, tags) => {
    expect(tagsForDocumentType(type)).toEqual(tags);
  });
});

describe('SeenSignatures.forget', () => {
  it('lets a call that was accepted but not applied come again', () => {
    const seen = new SeenSignatures();
    expect(seen.add('t=1,v1=x', 10, 0)).toBe(true);
    expect(seen.add('t=1,v1=x', 10, 0)).toBe(false);
    seen.forget('t=1,v1=x');
    expect(seen.add('t=1,v1=x', 10, 0)).toBe(true);
  });
});
