import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { lendUpdateTags } from '@/lib/cache/tag-expiry';
import { writeAtomically } from '@school-site/content-lake';
import { SEED_FILE } from '@/testkit/paths';

import { localLake } from '@/lib/content/local-lake';
import { versionId, versionsOf } from './policy-record';
import { addDays, dayIn } from '@/lib/shared/site-time';

/**
 * The record of the policy's versions as the embedded default's lake keeps it (local-lake.ts): on a copy
 * of the seed, through the lake's own actions, its scheduler and a hand edit of the file, with the
 * schema's rules checked as in the server; the pages each expires are those Next's cache handler is told of.
 */

let dir: string;
let file: string;
/** Days relative to today (UTC, the seed's time zone): a version dated in the past is in effect, one ahead announced. */
const day = (offset: number) => addDays(dayIn(Date.now(), 'UTC'), offset);
const [NEW, EARLIER, AHEAD, LATER, TOO_EARLY] = [day(-2), day(-4), day(40), day(50), day(-3)];

/** The tags the lake expired, through the cache handler's updateTags (lib/cache/tag-expiry.ts). */
const expired: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'policy-record-'));
  file = path.join(dir, 'content.ndjson');
  await copyFile(SEED_FILE, file);
  await lendUpdateTags(async (tags) => void expired.push(...tags));
  vi.stubEnv('CONTENT_FILE', file);
  vi.stubEnv('DATA_DIR', dir);
}, 30_000);

afterAll(async () => {
  (await localLake()).lake.close();
  vi.unstubAllEnvs();
  await rm(dir, { recursive: true, force: true });
});

const lake = async () => (await localLake()).lake;
const record = async () => versionsOf((await lake()).dataset.documents());
const DRAFT = { draftId: 'drafts.privacyPolicy', publishedId: 'privacyPolicy' };
const edit = (set: Record<string, unknown>) => ({ actionType: 'sanity.action.document.edit', ...DRAFT, patch: { set } });
const publish = { actionType: 'sanity.action.document.publish', ...DRAFT };
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: Error) => error.message,
  );

describe("the embedded lake's record of the policy", () => {
  it("starts from the seed's own version, and a draft with a new date adds none", async () => {
    expect((await record()).map((version) => version.date)).toEqual(['2026-11-22']);
    await (await lake()).act([edit({ lastUpdated: NEW, title: 'Draft title' })]);
    expect((await record()).map((version) => version.date)).toEqual(['2026-11-22']);
  }, 60_000);

  it('a publish with a new date adds a version in the same transaction, written to the file', async () => {
    const { transactionId } = await (await lake()).act([edit({ lastUpdated: NEW, summary: 'A new section on reports.' }), publish]);
    const [latest, first] = await record();
    expect(latest).toMatchObject({ date: NEW, summary: 'A new section on reports.', title: 'Draft title', _rev: transactionId });
    expect(first!.date).toBe('2026-11-22');
    expect(await readFile(file, 'utf8')).toContain(`"_id":"${versionId(NEW)}"`);
  });

  it('the same date corrects it and keeps the text it replaced; an earlier date is refused, by action and by raw mutation', async () => {
    await (await lake()).act([edit({ title: 'Privacy Policy' }), publish]);
    const [corrected] = await record();
    expect(corrected).toMatchObject({ date: NEW, title: 'Privacy Policy', correctedAt: expect.any(String) });
    expect(corrected!.replaced?.map((text) => text.title)).toEqual(['Draft title']);

    expect(await failure((await lake()).act([edit({ lastUpdated: EARLIER }), publish]))).toMatch(/earlier than the current version/);
    const raw = { patch: { id: 'privacyPolicy', set: { lastUpdated: EARLIER } } };
    expect(await failure((await lake()).mutate([raw]))).toMatch(/earlier than the current version/);
    expect((await lake()).dataset.get('privacyPolicy')!.lastUpdated).toBe(NEW);
  });

  it('a material change too soon for the notice period is refused, naming the earliest day, by action and by raw mutation', async () => {
    const soon = edit({ lastUpdated: day(10), materialChange: true });
    expect(await failure((await lake()).act([soon, publish]))).toContain(`the earliest "Last updated" date is ${day(30)}`);
    const raw = { patch: { id: 'privacyPolicy', set: { lastUpdated: day(10), materialChange: true } } };
    expect(await failure((await lake()).mutate([raw]))).toContain(`the earliest "Last updated" date is ${day(30)}`);
    expect((await record())[0]!.date).toBe(NEW);
    await (await lake()).act([edit({ lastUpdated: NEW, materialChange: false }), publish]);
  });

  it.each([
    ['a NUL', 'Word\u0000pasted', /summary holds a NUL character \(U\+0000\)/],
    ['a vertical tab', 'Line one\u000Bline two', /summary holds a vertical tab \(a line break pasted from Word\) \(U\+000B\)/],
  ])('a summary with %s is refused, naming the field and the character, by action and by raw mutation', async (_, summary, said) => {
    const before: unknown = (await lake()).dataset.get('privacyPolicy')!.summary;
    expect(await failure((await lake()).act([edit({ summary }), publish]))).toMatch(said);
    expect(await failure((await lake()).mutate([{ patch: { id: 'privacyPolicy', set: { summary } } }]))).toMatch(said);
    expect((await lake()).dataset.get('privacyPolicy')!.summary).toBe(before);
    expect((await lake()).dataset.get(DRAFT.draftId)).toBeUndefined();
  });

  it('refuses every write to the record but its own', async () => {
    const forged = {
      createOrReplace: { _id: versionId(NEW), _type: 'privacyPolicyVersion', date: NEW, title: 'Rewritten' },
    };
    expect(await failure((await lake()).mutate([forged]))).toMatch(/cannot be edited/);
    expect(await failure((await lake()).mutate([{ delete: { id: versionId('2026-11-22') } }]))).toMatch(/cannot be edited/);
    expect((await record()).map((version) => version.title)).toEqual(['Privacy Policy', 'Privacy Policy']);
  });

  it('a release at its time adds its version; until then the record holds nothing of it', async () => {
    const name = 'rJanuary1';
    const versionDoc = `versions.${name}.privacyPolicy`;
    await (
      await lake()
    ).act([
      { actionType: 'sanity.action.release.create', releaseId: name, metadata: { title: 'January', releaseType: 'scheduled' } },
      { actionType: 'sanity.action.document.version.create', publishedId: 'privacyPolicy', baseId: 'privacyPolicy', versionId: versionDoc },
      {
        actionType: 'sanity.action.document.edit',
        draftId: versionDoc,
        publishedId: 'privacyPolicy',
        patch: { set: { lastUpdated: AHEAD } },
      },
    ]);
    const publishAt = new Date(Date.now() + 1500).toISOString();
    await (await lake()).act([{ actionType: 'sanity.action.release.schedule', releaseId: name, publishAt }]);
    expect((await record()).map((version) => version.date)).toEqual([NEW, '2026-11-22']);
    expired.length = 0;
    await vi.waitFor(() => expect(expired).toContain('privacyPolicy'), { timeout: 20_000, interval: 100 });
    expect((await record())[0]!.date).toBe(AHEAD);
  }, 60_000);

  it('a hand edit of the policy with a new date is taken in once saved, its pages expired and its version followed; one dated earlier leaves the file unserved', async () => {
    const dated = (text: string, date: string) => text.replace(/"lastUpdated":"[\d-]+"/, `"lastUpdated":"${date}"`);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expired.length = 0;
    // No request and no refresh: the lake watches its file.
    await writeFile(file, dated(await readFile(file, 'utf8'), LATER));
    await vi.waitFor(async () => expect((await record())[0]!.date).toBe(LATER), { timeout: 10_000 });
    expect(expired).toContain('privacyPolicy');

    const good = await readFile(file, 'utf8');
    const said = vi.spyOn(console, 'error').mockImplementation(() => {});
    // Replaced whole, as git and most editors save: an in-place write the watch reads between its truncation
    // and its text is refused for what it was then (every document missing), and said too.
    await writeAtomically(file, dated(good, TOO_EARLY));
    await (await lake()).dataset.refresh();
    expect((await lake()).dataset.problem()).toMatch(
      new RegExp(`privacyPolicy: "Last updated" is ${TOO_EARLY}, earlier than .*\\(${NEW}\\)`),
    );
    expect(said).toHaveBeenCalledOnce();
    said.mockRestore();
    await writeFile(file, good);
    await (await lake()).dataset.refresh();
    expect((await lake()).dataset.problem()).toBeUndefined();
  }, 60_000);

  it('is whole after the history log is deleted and the lake opened again', async () => {
    const before = await record();
    expect(before.map((version) => version.date)).toEqual([LATER, AHEAD, NEW, '2026-11-22']);
    (await lake()).close();
    delete (globalThis as Record<symbol, unknown>)[Symbol.for('hallway.localLake')];
    await rm(path.join(dir, 'content-lake', 'history.ndjson'));
    expect(await record()).toEqual(before);
  }, 60_000);

  it('a material change is refused until every language has its text of its day; a release publishing both records both', async () => {
    const material = day(60);
    const said = `es has no text dated ${material} yet`;
    expect(await failure((await lake()).act([edit({ lastUpdated: material, materialChange: true }), publish]))).toContain(said);
    const raw = { patch: { id: 'privacyPolicy', set: { lastUpdated: material, materialChange: true } } };
    expect(await failure((await lake()).mutate([raw]))).toContain(said);
    expect((await record())[0]!.date).toBe(LATER);

    const name = 'rBothLanguages';
    const inRelease = (publishedId: string, set: Record<string, unknown>) => [
      {
        actionType: 'sanity.action.document.version.create',
        publishedId,
        baseId: publishedId,
        versionId: `versions.${name}.${publishedId}`,
      },
      { actionType: 'sanity.action.document.edit', draftId: `versions.${name}.${publishedId}`, publishedId, patch: { set } },
    ];
    await (
      await lake()
    ).act([
      { actionType: 'sanity.action.release.create', releaseId: name, metadata: { title: 'Both', releaseType: 'asap' } },
      ...inRelease('privacyPolicy', { lastUpdated: material, materialChange: true }),
      ...inRelease('privacyPolicy-es', { lastUpdated: material, title: 'Política de privacidad (nueva)' }),
    ]);
    await (await lake()).act([{ actionType: 'sanity.action.release.publish', releaseId: name }]);
    const [announced] = await record();
    expect(announced).toMatchObject({
      date: material,
      material: true,
      translations: [{ language: 'es', title: 'Política de privacidad (nueva)' }],
    });
    expect(announced!.translations![0]!.recordedAt >= announced!.publishedAt).toBe(true);

    // A translation published alone, as the Studio publishes it: its version's text in that language, corrected.
    const es = { draftId: 'drafts.privacyPolicy-es', publishedId: 'privacyPolicy-es' };
    await (
      await lake()
    ).act([
      { actionType: 'sanity.action.document.edit', ...es, patch: { set: { title: 'Política de privacidad (corregida)' } } },
      { actionType: 'sanity.action.document.publish', ...es },
    ]);
    expect((await record())[0]!.translations!.map(({ title }) => title)).toEqual(['Política de privacidad (corregida)']);
  }, 60_000);
});
