import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { SEED_FILE } from '@/testkit/paths';
import { startContentLake, type ContentLake } from '@/testkit/content-lake/server.ts';

import { versionId } from '@/lib/policy/policy-record';
import { recordHostedPublish } from './policy-record-hosted';
import { addDays, dayIn } from '@/lib/shared/site-time';

/** Days relative to today (UTC, the seed's time zone): a version dated in the past is in effect, one ahead announced. */
const day = (offset: number) => addDays(dayIn(Date.now(), 'UTC'), offset);
const [NEW, EARLIER, NEXT, AHEAD] = [day(-2), day(-4), day(-1), day(40)];

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

/** A publish as Sanity makes it: the published policy (or its translation `id`) with `set`. */
const publish = (set: Record<string, unknown>, id = 'privacyPolicy') => lake.mutate([{ patch: { id, set } }]);
const stored = (date: string) => lake.documents().find((doc) => doc._id === versionId(date));

describe("the publish webhook's record on a hosted project", () => {
  it('a new date adds its version once, dated by the publish; a webhook sent again adds nothing', async () => {
    await publish({ lastUpdated: NEW, summary: 'Reports are kept 30 days.' });
    const publishedAt = lake.documents().find((doc) => doc._id === 'privacyPolicy')!._updatedAt;
    expect(await recordHostedPublish()).toBe(`added ${NEW}`);
    expect(stored(NEW)).toMatchObject({ date: NEW, publishedAt, summary: 'Reports are kept 30 days.' });
    expect(await recordHostedPublish()).toBe('already recorded');
  });

  it('the same date corrects the version over the revision read, keeping the text it replaced', async () => {
    const before = stored(NEW)!;
    await publish({ title: 'Privacy Policy (corrected)', summary: '' });
    expect(await recordHostedPublish()).toBe(`corrected ${NEW}`);
    const corrected = stored(NEW)!;
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

  it('an earlier date, or a material change too soon, is not recorded, and says why; nor is anything without the token', async () => {
    await publish({ lastUpdated: EARLIER });
    expect(await recordHostedPublish()).toMatch(new RegExp(`^not recorded: "Last updated" is ${EARLIER}, earlier than .*\\(${NEW}\\)`));
    expect(stored(EARLIER)).toBeUndefined();
    await publish({ lastUpdated: day(10), materialChange: true });
    expect(await recordHostedPublish()).toBe(
      `not recorded: A material change takes effect at least 30 days after it is announced (${day(0)}): the earliest "Last updated" date is ${day(30)}.`,
    );
    await publish({ lastUpdated: NEXT, materialChange: false });
    vi.stubEnv('SANITY_API_RECORD_TOKEN', '');
    expect(await recordHostedPublish()).toBe('not recorded: SANITY_API_RECORD_TOKEN is not set');
    vi.stubEnv('SANITY_API_RECORD_TOKEN', TOKEN);
    expect(await recordHostedPublish()).toBe(`added ${NEXT}`);
  });

  it('a material change is announced only once every language has its text, and records each text with its version', async () => {
    await publish({ lastUpdated: AHEAD, materialChange: true });
    expect(await recordHostedPublish()).toBe(
      `not recorded: A material change is announced in every language at once, and es has no text dated ${AHEAD} yet. Publish each translation with this date first, or all of them in one release (Site settings can allow announcing before).`,
    );
    expect(stored(AHEAD)).toBeUndefined();
    await publish({ lastUpdated: AHEAD, title: 'Política de privacidad (nueva)' }, 'privacyPolicy-es');
    expect(await recordHostedPublish()).toBe(`added ${AHEAD}, recorded the es text of ${AHEAD}`);
    expect(stored(AHEAD)).toMatchObject({ translations: [{ language: 'es', title: 'Política de privacidad (nueva)' }] });
    expect(await recordHostedPublish()).toBe('already recorded');
  });

  it("a correction leaves a translation out of date until it is published again; the record keeps each language's text", async () => {
    await publish({ title: 'Privacy Policy (ahead, corrected)' });
    expect(await recordHostedPublish()).toBe(`corrected ${AHEAD}`);
    type Recorded = { correctedAt: string; translations: { recordedAt: string; title: string }[] };
    const corrected = stored(AHEAD) as unknown as Recorded;
    expect(corrected.translations[0]!.recordedAt < corrected.correctedAt).toBe(true);
    await publish({ title: 'Política de privacidad (nueva, corregida)' }, 'privacyPolicy-es');
    expect(await recordHostedPublish()).toBe(`recorded the es text of ${AHEAD}`);
    const retranslated = stored(AHEAD) as unknown as Recorded;
    expect(retranslated.translations[0]!.recordedAt >= retranslated.correctedAt).toBe(true);
    expect(retranslated.translations.map(({ title }) => title)).toEqual(['Política de privacidad (nueva, corregida)']);
    expect(stored('2026-11-22')).toMatchObject({ translations: [{ language: 'es', title: 'Política de privacidad' }] });
  });

  it('a version announced ahead is recorded as material; an earlier day published then withdraws it, in one transaction', async () => {
    expect(stored(AHEAD)).toMatchObject({ material: true });
    await publish({ lastUpdated: NEXT, materialChange: false, title: stored(NEXT)!.title });
    expect(await recordHostedPublish()).toBe(`withdrew ${AHEAD}`);
    expect(stored(AHEAD)).toMatchObject({ withdrawnAt: expect.any(String) });
    expect(stored(NEXT)).not.toHaveProperty('withdrawnAt');
  });
});
