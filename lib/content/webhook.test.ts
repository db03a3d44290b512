import { encodeSignatureHeader, SIGNATURE_HEADER_NAME } from '@sanity/webhook';
import { describe, expect, it } from 'vitest';

import { tagsForDocumentType } from './tags';
import { verifyWebhook } from './webhook';

const SECRET = 'unit-test-secret';

async function signedRequest(payload: string, secret = SECRET, headers: Record<string, string> = {}) {
  const signature = await encodeSignatureHeader(payload, Date.now(), secret);
  return new Request('http://localhost/api/revalidate', {
    method: 'POST',
    headers: { [SIGNATURE_HEADER_NAME]: signature, ...headers },
    body: payload,
  });
}

describe('verifyWebhook', () => {
  it('accepts a correctly signed body and reads its type', async () => {
    expect(await verifyWebhook(await signedRequest('{"_type":"privacyPolicy","_id":"privacyPolicy"}'), SECRET)).toEqual({
      ok: true,
      type: 'privacyPolicy',
    });
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
});

describe('tagsForDocumentType', () => {
  it.each([
    ['siteSettings', ['siteSettings']],
    ['landingPage', ['landingPage']],
    ['supportPage', ['supportPage']],
    ['privacyPolicy', ['privacyPolicy']],
    ['sanity.imageAsset', []],
    [undefined, []],
  ])('%s refreshes %j', (type, tags) => {
    expect(tagsForDocumentType(type)).toEqual(tags);
  });
});
