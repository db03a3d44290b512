import 'server-only';

import { withoutControls } from '@/lib/shared/plain-text';

import { announceVersion, recordedAnnouncements, withdrawVersion } from './outbox';
import { nudgeMailSender } from './nudge';

/**
 * What the privacy policy's side calls when a material version is announced or withdrawn.
 * Each subscriber confirmed at the announcement gets one email about that change alone (lib/mail/message.ts),
 * sent by the senders of every instance from the outbox: exactly once per subscriber and version, across
 * restarts, a SIGKILL mid-send and several instances (supabase/migrations/*_mail_outbox.sql).
 */
export type AnnouncedVersion = {
  /** YYYY-MM-DD, the day it takes effect. */
  date: string;
  summary: string | null;
  /** ISO time of its first publish. */
  announcedAt: string;
};

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function checkDate(date: string) {
  if (!DATE.test(date)) throw new Error(`a policy version's date is YYYY-MM-DD, got "${date}"`);
}

/**
 * Idempotent (safe to call many times, from several instances, across restarts): queues ONE notice per
 * subscriber confirmed now, for this version, the first time it is called for that date; later calls do
 * nothing. Resolves once queued (committed), and wakes this instance's sender. A version withdrawn and
 * announced again is active again: its cancelled notices are queued again, still one per subscriber.
 */
export async function announcePolicyVersion(version: AnnouncedVersion): Promise<void> {
  checkDate(version.date);
  if (Number.isNaN(Date.parse(version.announcedAt))) throw new Error(`announcedAt is an ISO time, got "${version.announcedAt}"`);
  // A summary published before the editors' rule may hold a NUL, which Postgres text cannot store.
  const summary = version.summary === null ? null : withoutControls(version.summary);
  const queued = await announceVersion(version.date, summary, version.announcedAt);
  if (queued > 0) nudgeMailSender();
}

/** The version of `date` was withdrawn before its date: its notices not yet sent are cancelled (never sent); those sent stay recorded. Idempotent. */
export async function withdrawPolicyVersion(date: string): Promise<void> {
  checkDate(date);
  await withdrawVersion(date);
}

/** The days of the versions the store has recorded as announced, withdrawn since or not: all the feed may call announced. */
export const announcedVersionDates = async (): Promise<string[]> => recordedAnnouncements();
