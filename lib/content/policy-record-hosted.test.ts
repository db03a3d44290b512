import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { SEED_FILE } from '@/testkit/paths';
import { startContentLake, type ContentLake } from '@/testkit/content-lake/server.ts';

import { versionId } from './policy-record';
import { recordHostedPublish } from './policy-record-hosted';

/**
 * The record on a hosted project: the webhook's writer, with the real @sanity/client, against the
 * Content Lake stand-in serving the seed as a Sanity project with a token (the hosted build's tests
 * publish through it too).
 */

const TOKEN = 'record-token';
let lake: ContentLake;

beforeAll(async () => {
  lake = await startContentLake({ file: SEED_FILE, token: TOKEN, projectId: 'lake' });
  vi.stubEnv('NEXT_PUBLIC_SANITY_PROJECT_ID', 'lake');
  vi.stubEnv('NEXT_PUBLIC_SANITY_DATASET', lake.dataset);
  vi.stubEnv('SANITY_API_HOST', lake.origin);
  vi.stubEnv('SANITY_API_RECORD_TOKEN', TOKEN);
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await lake.stop();
});

/** A publish as Sanity makes it: the published policy with `set`. */
const publish = (set: Record<string, unknown>) => lake.mutate([{ patch: { id: 'privacyPolicy', set } }]);
const stored = (date: string) => lake.documents().find((doc) => doc._id === versionId(date));

describe("the publish webhook's record on a hosted project", () => {
  it('a new date adds its version once, dated by the publish; a webhook sent again adds nothing', async () => {
    await publish({ lastUpdated: '2026-12-01', summary: 'Reports are kept 30 days.' });
    const publishedAt = lake.documents().find((doc) => doc._id === 'privacyPolicy')!._updatedAt;
    expect(await recordHostedPublish()).toBe('added 2026-12-01');
    expect(stored('2026-12-01')).toMatchObject({ date: '2026-12-01', publishedAt, summary: 'Reports are kept 30 days.' });
    expect(await recordHostedPublish()).toBe('already recorded');
  });

  it('the same date corrects the version over the revision read, keeping the text it replaced', async () => {
    const before = stored('2026-12-01')!;
    await publish({ title: 'Privacy Policy (corrected)', summary: '' });
    expect(await recordHostedPublish()).toBe('corrected 2026-12-01');
    const corrected = stored('2026-12-01')!;
    expect(corrected).toMatchObject({
      title: 'Privacy Policy (corrected)',
      publishedAt: before.publishedAt,
      correctedAt: expect.any(String),
    });
    expect(corrected.summary).toBeUndefined();
    expect((corrected.replaced as { title: string; summary?: string }[]).map(({ title, summary }) => [title, summary])).toEqual([
      [before.title, 'Reports are kept 30 days.'],
    ]);
  });

  it('an earlier date is not recorded, and says why; nor is anything without the token', async () => {
    await publish({ lastUpdated: '2026-11-30' });
    expect(await recordHostedPublish()).toMatch(/^not recorded: "Last updated" is 2026-11-30, earlier than .*\(2026-12-01\)/);
    expect(stored('2026-11-30')).toBeUndefined();
    await publish({ lastUpdated: '2026-12-15' });
    vi.stubEnv('SANITY_API_RECORD_TOKEN', '');
    expect(await recordHostedPublish()).toBe('not recorded: SANITY_API_RECORD_TOKEN is not set');
    vi.stubEnv('SANITY_API_RECORD_TOKEN', TOKEN);
    expect(await recordHostedPublish()).toBe('added 2026-12-15');
  });
});
