import 'server-only';

import { withoutControls } from '@/lib/shared/plain-text';
import { fillTokens } from '@/lib/shared/tokens';
import { formatDate } from '@/lib/shared/view-fields';
import { siteUrl } from '@/lib/env/public';
import { changesPath, ROUTES, versionPath, withToken } from '@/lib/shared/public-pages';
import { localePath } from '@/lib/shared/languages';
import { isEmailAddress } from '@/lib/forms/validation';

import { renderHtml, renderText, type Body } from './body';
import type { MailCopy } from '@/lib/content/mail-copy-cache';
import type { ClaimedMail } from '@/lib/store/outbox';

/** One email, ready for the transport (lib/mail/transport.ts). */
export type Mail = {
  from: { name: string; address: string };
  to: string;
  subject: string;
  text: string;
  html: string;
  /** <kind.ref.subscriber@domain>: the same for every attempt at the same email (see messageId). */
  messageId: string;
  headers: Record<string, string>;
};

/** An address the senders will not write to: not retried, since it will not change. */
export class UndeliverableError extends Error {}

/**
 * The same Message-ID for every attempt at one email (its kind, its version or confirmation number, its
 * subscriber): a mail server that took an attempt whose acceptance never reached the outbox (the sender
 * died in between) and then gets the retry sees one message twice, and a server that keeps Message-IDs
 * drops the second (RFC 1047's duplicate, docs/operations.md).
 */
export const messageId = ({ kind, ref, subscriberId }: Pick<ClaimedMail, 'kind' | 'ref' | 'subscriberId'>, from: string) =>
  `<${kind}.${ref}.${subscriberId}@${from.slice(from.lastIndexOf('@') + 1)}>`;

// A subject is one line: line breaks or other controls in the copy would otherwise reach the header.
const oneLine = (text: string) => text.replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ').trim();

/** A page of the site in the email's language, so its reader lands on the pages they signed up from. */
const link = (path: string, language: string) => `${siteUrl()}${localePath(path, language, { defaultLanguage: '' })}`;

/** A day in the email's language; the default language's as the pages write it. */
const day = (isoDate: string, language: string) => formatDate(isoDate, language || undefined);

function confirmationBody(mail: ClaimedMail, { words, language }: MailCopy): Body['main'] {
  if (!mail.token) throw new Error(`confirmation ${mail.id} has no token`);
  return [
    { paragraph: words.confirmText },
    { link: words.confirmLink, href: link(withToken(ROUTES.confirm, mail.token), language) },
    { paragraph: words.confirmIgnore },
  ];
}

function noticeBody(mail: ClaimedMail, { words, language, recordIn }: MailCopy): Body['main'] {
  return [
    { paragraph: fillTokens(words.noticeText, { date: day(mail.ref, language) }) },
    // The summary is the record's, in the default language, whatever the email's.
    ...(mail.summary ? [{ label: words.noticeSummaryLabel, text: mail.summary, textIn: recordIn }] : []),
    { link: words.noticeVersionLink, href: link(versionPath(mail.ref), language) },
    { link: words.noticeChangesLink, href: link(changesPath(mail.ref), language) },
  ];
}

/**
 * The email of a claimed message, in the language of `copy` (the subscriber's, as far as the site serves
 * it: lib/mail/copy.ts): a confirmation (its link to the confirmation page) or a notice of a
 * material change (the summary, the day it takes effect, the new version and what changes), each with
 * the unsubscribe link in its footer and as RFC 8058's one-click headers, which mail clients show as an
 * unsubscribe button. The confirmation has them too: it is the one email someone who never signed up
 * may get, and a button to say so beats a spam report (the address is then written to again only when
 * signed up again, at most once in 90 days: supabase/migrations/*_resubscribe_interval.sql).
 */
export function composeMail(mail: ClaimedMail, copy: MailCopy, from: string): Mail {
  const { productName, words, language } = copy;
  if (!isEmailAddress(mail.email)) throw new UndeliverableError(`message ${mail.id}: the stored address is not one the forms accept`);
  const confirmation = mail.kind === 'confirmation';
  const subject = oneLine(confirmation ? words.confirmSubject : fillTokens(words.noticeSubject, { date: day(mail.ref, language) }));
  const body: Body = {
    main: confirmation ? confirmationBody(mail, copy) : noticeBody(mail, copy),
    footer: [
      { paragraph: words.emailFooter },
      { link: words.unsubscribeLink, href: link(withToken(ROUTES.unsubscribe, mail.unsubscribeToken), language) },
    ],
  };
  return {
    from: { name: oneLine(productName), address: from },
    to: mail.email,
    subject,
    // Text published before the editors' rule (lib/shared/plain-text.ts) may hold controls no mail client shows.
    text: withoutControls(renderText(body)),
    html: withoutControls(renderHtml(body, { title: subject, writtenIn: copy.writtenIn, names: [productName, mail.email] })),
    messageId: messageId(mail, from),
    headers: {
      // The email's language (RFC 3282): a client offers to translate it, or reads it aloud, knowing which it is.
      'Content-Language': copy.writtenIn.tag,
      'List-Unsubscribe': `<${link(withToken(ROUTES.oneClick, mail.unsubscribeToken), language)}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
