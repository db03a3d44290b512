import 'server-only';

import { cacheLife, cacheTag } from 'next/cache';

import { announcedVersionDates } from '@/lib/store/notices';

/**
 * The tag of what the store records of the policy's announcements (the feed reads it): expired when a
 * follow of the policy has announced or withdrawn a version, not by a publish.
 */
export const ANNOUNCEMENTS_TAG = 'policyAnnouncements';

/**
 * The days whose announcement the store has recorded, kept until a follow of the policy announces or
 * withdraws one (policy-follow.ts). Unknown means none: while the store cannot be read (or at build,
 * when it is not the server's to open) the feed announces nothing, and asks again within a minute.
 */
export async function announcedDates(): Promise<string[]> {
  'use cache';
  cacheTag(ANNOUNCEMENTS_TAG);
  if (process.env.NEXT_PHASE === 'phase-production-build') {
    cacheLife('seconds');
    return [];
  }
  try {
    const dates = await announcedVersionDates();
    cacheLife('max');
    return dates;
  } catch (error) {
    console.error('the feed announces nothing while the store cannot be read', error);
    cacheLife('seconds');
    return [];
  }
}
