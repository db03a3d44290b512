import { describe, expect, it, vi } from 'vitest';

import { toSubscriptionCopy } from '@/lib/forms/subscription-copy';
import { SEED } from '@/testkit/seed-copy';

import { composeMail, messageId, UndeliverableError } from './message';
import type { ClaimedMail } from '@/lib/store/outbox';
import { leaseSeconds, MAX_ATTEMPTS, retryDelaySeconds, RETRY_CAP_SECONDS, sendDeadlineMs } from './pace';

/** The emails as the senders write them, and the senders' pacing: no store, no server. */
vi.stubEnv('NEXT_PUBLIC_SITE_URL', 'https://hallway.example');

const productName = SEED.settings.productName!;
const ENGLISH = { tag: 'en', direction: 'ltr' } as const;
const copy = {
  language: '',
  writtenIn: ENGLISH,
  recordIn: ENGLISH,
  productName,
  words: toSubscriptionCopy({ productName, subscription: SEED.settings.subscription! }),
};
const TOKEN = 'A'.repeat(43);

const notice = (change: Partial<ClaimedMail> = {}): ClaimedMail => ({
  id: 7,
  kind: 'notice',
  attempt: 1,
  ref: '2027-01-15',
  subscriberId: '6583234b-ac2f-4336-9172-7188f7bf62ce',
  email: 'reader@example.com',
  token: null,
  unsubscribeToken: TOKEN,
  summary: 'Posts are kept for 3 days.',
  language: '',
  ...change,
});

describe('the emails', () => {
  it('the Message-ID is the same for every attempt at one email, and differs between emails', () => {
    const id = messageId(notice(), 'no-reply@hallway.example');
    expect(id).toBe('<notice.2027-01-15.6583234b-ac2f-4336-9172-7188f7bf62ce@hallway.example>');
    expect(messageId(notice({ attempt: 5, id: 99 }), 'no-reply@hallway.example')).toBe(id);
    expect(messageId(notice({ ref: '2027-02-01' }), 'no-reply@hallway.example')).not.toBe(id);
    expect(messageId(notice({ kind: 'confirmation', ref: '1' }), 'no-reply@hallway.example')).not.toBe(id);
  });

  it('a summary or a text with markup is escaped in the HTML part and kept as it is in the text part', () => {
    const mail = composeMail(notice({ summary: '<script>alert(1)</script> & "more"' }), copy, 'no-reply@hallway.example');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;more&quot;');
    expect(mail.html).not.toContain('<script>');
    expect(mail.text).toContain('<script>alert(1)</script> & "more"');
  });

  it('a notice without a summary leaves the summary line out', () => {
    const mail = composeMail(notice({ summary: null }), copy, 'no-reply@hallway.example');
    expect(mail.text).not.toContain(copy.words.noticeSummaryLabel);
  });

  it('no header injection: line breaks in the copy never reach a header, and an address the forms refuse is never written to', () => {
    const words = { ...copy.words, noticeSubject: 'Changes\r\nBcc: everyone@example.com\u2028on {date}' };
    const mail = composeMail(notice(), { ...copy, productName: 'Hall\nway', words }, 'no-reply@hallway.example');
    expect(mail.subject).toBe('Changes Bcc: everyone@example.com on January 15, 2027');
    expect(mail.from.name).toBe('Hall way');
    for (const email of [
      'reader@example.com\r\nBcc: all@example.com',
      'reader@example.com, other@example.com',
      'Reader <reader@example.com>',
    ]) {
      expect(() => composeMail(notice({ email }), copy, 'no-reply@hallway.example')).toThrow(UndeliverableError);
    }
  });
});

describe('the emails in the subscriber’s language', () => {
  const FROM = 'no-reply@hallway.example';
  const SITE = 'https://hallway.example';
  const links = (text: string) => text.match(/https:\/\/\S+/g);

  it('the default language: every link without a prefix, the date as before', () => {
    const mail = composeMail(notice(), copy, FROM);
    expect(links(mail.text)).toEqual([
      `${SITE}/privacy/versions/2027-01-15`,
      `${SITE}/privacy/versions/2027-01-15/changes`,
      `${SITE}/subscription/unsubscribe?token=${TOKEN}`,
    ]);
    expect(mail.headers['List-Unsubscribe']).toBe(`<${SITE}/subscription/unsubscribe/one-click?token=${TOKEN}>`);
    expect(mail.subject).toContain('January 15, 2027');
  });

  it('another language: every link opens its pages, and the date is written in it', () => {
    const spanish = { ...copy, language: 'es' };
    const mail = composeMail(notice(), spanish, FROM);
    expect(links(mail.text)).toEqual([
      `${SITE}/es/privacy/versions/2027-01-15`,
      `${SITE}/es/privacy/versions/2027-01-15/changes`,
      `${SITE}/es/subscription/unsubscribe?token=${TOKEN}`,
    ]);
    expect(mail.html).toContain(`href="${SITE}/es/privacy/versions/2027-01-15/changes"`);
    expect(mail.headers['List-Unsubscribe']).toBe(`<${SITE}/es/subscription/unsubscribe/one-click?token=${TOKEN}>`);
    expect(mail.subject).toContain('15 de enero de 2027');
    expect(mail.text).not.toContain('January');
    const confirmation = composeMail(notice({ kind: 'confirmation', ref: '1', token: 'B'.repeat(43) }), spanish, FROM);
    expect(links(confirmation.text)?.[0]).toBe(`${SITE}/es/subscription/confirm?token=${'B'.repeat(43)}`);
  });
});

describe('the emails say their language and keep its direction', () => {
  const FROM = 'no-reply@hallway.example';
  const arabic = { ...copy, language: 'ar', writtenIn: { tag: 'ar', direction: 'rtl' } as const };

  it('Content-Language names the email’s language, the default’s own tag for the default language', () => {
    expect(composeMail(notice(), copy, FROM).headers['Content-Language']).toBe('en');
    expect(composeMail(notice(), arabic, FROM).headers['Content-Language']).toBe('ar');
  });

  it('the HTML part is a whole document in that language and direction, its content too (a webmail drops <html>)', () => {
    const { html } = composeMail(notice(), arabic, FROM);
    expect(html).toMatch(/^<!doctype html>\n<html lang="ar" dir="rtl">\n/);
    expect(html).toContain('<div lang="ar" dir="rtl" style="max-width:560px;margin:0 auto;text-align:start">');
    expect(composeMail(notice(), copy, FROM).html).toContain('<html lang="en" dir="ltr">');
  });

  it('the summary, the record’s own text in the default language, says so inside an Arabic email, and nowhere else', () => {
    const summary = 'Reports are now kept for 14 days.';
    expect(composeMail(notice({ summary }), arabic, FROM).html).toContain(`<span lang="en" dir="ltr">${summary}</span>`);
    expect(composeMail(notice({ summary }), copy, FROM).html).not.toContain('<span lang=');
  });

  it('the product’s name in a sentence is isolated in the HTML part, as a whole word, and plain in the text part', () => {
    const words = { ...arabic.words, noticeText: 'نغيّر سياسة Hallway. «Hallways» {date}', emailFooter: 'Hallway: AT&T <x>' };
    const mail = composeMail(notice(), { ...arabic, productName: 'Hallway', words }, FROM);
    expect(mail.html).toContain('<p>نغيّر سياسة <bdi>Hallway</bdi>. «Hallways» ');
    expect(mail.html).toContain('<p><bdi>Hallway</bdi>: AT&amp;T &lt;x&gt;</p>');
    expect(mail.text).toContain('نغيّر سياسة Hallway.');
    expect(mail.text).not.toContain('bdi');
    expect(mail.subject).not.toContain('bdi');
  });
});

describe('the senders’ pacing', () => {
  it('retries double from a minute up to an hour, ±20 %', () => {
    const middle = () => 0.5;
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((attempt) => retryDelaySeconds(attempt, middle))).toEqual([
      60, 120, 240, 480, 960, 1920, 3600, 3600,
    ]);
    expect(retryDelaySeconds(1, () => 0)).toBe(48);
    expect(retryDelaySeconds(1, () => 1)).toBe(72);
    expect(retryDelaySeconds(MAX_ATTEMPTS + 10, middle)).toBe(RETRY_CAP_SECONDS);
  });

  it('the lease covers a send and its record; a send started late gets less, and none past the lease', () => {
    const deadlines = { smtpTimeoutMs: 30_000, storeTimeoutMs: 10_000 };
    expect(leaseSeconds(deadlines)).toBe(45);
    expect(sendDeadlineMs(deadlines, 0)).toBe(30_000);
    expect(sendDeadlineMs(deadlines, 2_500.7)).toBe(27_499);
    expect(sendDeadlineMs(deadlines, 30_000)).toBeLessThanOrEqual(0);
    for (const elapsed of [0, 1_000, 29_999]) {
      // Send, then record, both by the end of the lease.
      expect(elapsed + sendDeadlineMs(deadlines, elapsed) + deadlines.storeTimeoutMs).toBeLessThanOrEqual(leaseSeconds(deadlines) * 1000);
    }
  });
});
