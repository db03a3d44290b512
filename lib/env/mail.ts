import 'server-only';

import { isEmailAddress } from '@/lib/forms/validation';

import { siteUrl } from './public';
import { numberSetting, optional } from './settings';

/**
 * How the site sends email (lib/mail/): an SMTP server, or without one .eml files under DATA_DIR; the
 * sender's address; how long one message may take. Checked at start with the rest (lib/env/server.ts).
 */

/** SMTP_URL: nodemailer's connection URL (smtp:// or smtps://, user and password in it); unset, messages become files. */
export function smtpUrl(): string | undefined {
  const raw = optional('SMTP_URL');
  if (!raw) return undefined;
  // null when unparsable, reported below with the other ways it can be wrong.
  const url = URL.parse(raw);
  if (!url || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || !url.hostname) {
    // Not the value itself: it may hold a password.
    throw new Error('SMTP_URL must be an smtp:// or smtps:// URL such as smtps://user:password@smtp.example.com:465.');
  }
  return raw;
}

/** Where the logs say the SMTP server is: the URL without its user name and password. */
export const smtpLocation = (raw: string) => {
  const url = new URL(raw);
  return `${url.protocol}//${url.host}`;
};

/**
 * How long one message may take, from connecting to the server's acceptance (default 30 s). A message
 * not accepted by then is given up on its connection and tried again later; the outbox's lease is
 * longer than this (lib/mail/pace.ts), so no other instance takes it meanwhile.
 */
export const smtpTimeoutMs = (): number => numberSetting('SMTP_TIMEOUT_SECONDS', 30, { min: 1, max: 300, whole: false }) * 1000;

/** MAIL_FROM: the address the emails come from, default no-reply@ the site's host; the name is the product's. */
export function mailFrom(): string {
  const raw = optional('MAIL_FROM');
  if (raw === undefined) return `no-reply@${new URL(siteUrl()).hostname}`;
  if (!isEmailAddress(raw)) throw new Error(`MAIL_FROM must be an email address such as no-reply@example.com, got "${raw}".`);
  return raw;
}
