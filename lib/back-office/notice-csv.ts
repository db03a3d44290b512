import 'server-only';

import { logAccess, MAX_PAGE_ROWS, noticeRecipients, noticeVersions, type NoticeRecipient } from '@/lib/store/back-office';

import type { Office } from './office';
import { attachment, refuse } from './respond';

/**
 * Everyone a version of the policy was announced to, as a CSV file for a reviewer's file (or a district's,
 * or a regulator's): one line per notice, in the order they were queued; an erased subscriber's line
 * keeps its state and time, with no address.
 */

const HEADER = ['email', 'status', 'sent_at', 'erased'];

/**
 * A field as spreadsheets read it: quoted when it holds a quote, comma or line break; and a field that a
 * spreadsheet would take for a formula (an address may begin with = or +) starts with a quote mark instead.
 */
function field(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const line = (recipient: NoticeRecipient) =>
  [recipient.email ?? '', recipient.status, recipient.sentAt ?? '', recipient.email === null ? 'yes' : 'no'].map(field).join(',');

async function everyRecipient(date: string): Promise<NoticeRecipient[]> {
  const all: NoticeRecipient[] = [];
  let cursor: string | null = null;
  do {
    const page: { rows: NoticeRecipient[]; next: string | null } = await noticeRecipients(date, cursor, MAX_PAGE_ROWS);
    all.push(...page.rows);
    cursor = page.next;
  } while (cursor !== null);
  return all;
}

export async function noticeCsv(office: Office, date: string): Promise<Response> {
  if (!(await noticeVersions()).some((version) => version.date === date)) return refuse(404, `No version dated ${date} was announced.`);
  const recipients = await everyRecipient(date);
  await logAccess({ actor: office.actor, action: 'export-notices', rows: recipients.length, subject: null });
  // CRLF, as RFC 4180 has it, and a byte-order mark so that spreadsheets read the addresses as UTF-8.
  const text = `\uFEFF${[HEADER.join(','), ...recipients.map(line)].join('\r\n')}\r\n`;
  return attachment(text, 'text/csv', `notices-${date}.csv`);
}
