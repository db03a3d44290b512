import { describe, expect, it } from 'vitest';

import { refusalPage } from './refusal-page';
import { BACK_TO_SUPPORT, REFUSALS } from './refusals';

/** The proxy's refusal pages: a status, words fixed in code, a way back, the site's headers, never cached. */

async function refusal(name: keyof typeof REFUSALS) {
  const response = refusalPage(REFUSALS[name]);
  return { status: response.status, headers: response.headers, html: await response.text() };
}

describe('refusal pages', () => {
  it('say why in their heading and title, with a link back to the support page', async () => {
    const { status, headers, html } = await refusal('crossSite');
    expect(status).toBe(403);
    expect(html).toContain('<title>This form can only be sent from this website.</title>');
    expect(html).toContain('<h1>This form can only be sent from this website.</h1>');
    expect(html).toContain(`<a href="/support">${BACK_TO_SUPPORT}</a>`);
    expect(headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(headers.get('cache-control')).toBe('no-store');
    expect(headers.get('content-security-policy')).toBeTruthy();
  });

  it('415 and 400 share the "could not be read" message', async () => {
    const notAForm = await refusal('notAForm');
    const unreadable = await refusal('unreadable');
    expect([notAForm.status, unreadable.status]).toEqual([415, 400]);
    expect(notAForm.html).toContain('<h1>Your request could not be read. Please try again.</h1>');
    expect(unreadable.html).toBe(notAForm.html);
  });

  it('413 asks for a shorter request', async () => {
    const { status, html } = await refusal('tooLarge');
    expect(status).toBe(413);
    expect(html).toContain('<h1>Your request is too large. Please shorten it and try again.</h1>');
  });
});
