import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { closeSharedStore } from '@/lib/store/pglite';
import { preparedDataDir, readStore } from '@/testkit/store';

import type { PolicyVersion } from './policy-record';
import { policyClock } from './policy-schedule';
import { addDays, dayIn } from '@/lib/shared/site-time';

/**
 * What follows a change of the policy's record (policy-follow.ts), into the embedded store as the server
 * calls it: announcements recorded whatever an older summary holds, each version on its own, and read
 * back as the feed reads them.
 */

let dataDir: string;

beforeAll(async () => {
  dataDir = await preparedDataDir(await mkdtemp(path.join(tmpdir(), 'policy-follow-')));
  vi.stubEnv('DATA_DIR', dataDir);
  vi.stubEnv('NEXT_PUBLIC_SUPABASE_URL', '');
  vi.stubEnv('NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY', '');
  vi.stubEnv('NEXT_PUBLIC_SUPABASE_ANON_KEY', '');
}, 60_000);

afterAll(async () => {
  await closeSharedStore(path.join(dataDir, 'pglite'));
  await rm(dataDir, { recursive: true, force: true });
  vi.unstubAllEnvs();
}, 30_000);

const day = (offset: number) => addDays(dayIn(Date.now(), 'UTC'), offset);
const version = (date: string, summary: string, publishedAt = new Date().toISOString()): PolicyVersion =>
  ({
    _id: `privacyPolicyVersion-${date}`,
    _type: 'privacyPolicyVersion',
    date,
    title: 'Privacy Policy',
    summary,
    material: true,
    publishedAt,
  }) as PolicyVersion;

describe('following the policy', () => {
  it('records an announcement whose summary holds a NUL or a vertical tab, without them; a version the store refuses is named, and keeps no other from being told', async () => {
    const { followPolicy } = await import('./policy-follow');
    const record = [
      version(day(40), 'Kept\u0000 60 days.'),
      version(day(30), 'Line one\u000Bline two.'),
      version(day(20), 'Not a time.', 'yesterday'),
    ];
    const failed = await followPolicy({ record, clock: policyClock({ timeZone: 'UTC', noticePeriodDays: 1 }) }).then(
      () => undefined,
      (error: Error) => error.message,
    );
    expect(failed).toMatch(new RegExp(`announcing ${day(20)}: announcedAt is an ISO time.*trying again in 60 s`));
    const announced = await readStore<{ version_date: string; summary: string }>(
      dataDir,
      'select version_date, summary from private.policy_announcements order by version_date',
    );
    expect(announced).toEqual([
      { version_date: day(30), summary: 'Line oneline two.' },
      { version_date: day(40), summary: 'Kept 60 days.' },
    ]);
    // What the feed may call announced: the two recorded, not the one the store refused.
    const { announcedVersionDates } = await import('@/lib/store/notices');
    expect((await announcedVersionDates()).sort()).toEqual([day(30), day(40)]);
  }, 60_000);
});
