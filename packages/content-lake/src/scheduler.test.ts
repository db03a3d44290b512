import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { Validate } from './actions';
import { parseNdjson, type SanityDocument } from './documents';
import { Lake, type LakeOptions } from './lake';
import { MAX_TIMER_MS } from './scheduler';
import type { Transaction } from './transaction';

/**
 * The lake publishing scheduled releases itself: at their time, once, on one timer; at start for a time
 * that passed while no lake ran; refused as a whole when the content breaks the schema. Times here are a
 * fraction of a second ahead, and the tests wait for the outcome, not for a deadline.
 */

const NAME = 'rJanuary1';
const RELEASE_ID = `_.releases.${NAME}`;
const VERSION = `versions.${NAME}.policy`;
const POLICY: SanityDocument = { _id: 'policy', _type: 'policy', _rev: 'seed', title: 'Privacy policy', sections: 7 };

let dir: string;
const lakes: Lake[] = [];
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'lake-scheduler-'));
});
afterEach(async () => {
  for (const lake of lakes.splice(0)) lake.close();
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

/** A lake whose owner keeps every transaction it is told of (onCommit): the scheduler's included. */
async function open(options: Partial<LakeOptions> = {}) {
  const committed: Transaction[] = [];
  const lake = await Lake.open({
    documents: [structuredClone(POLICY)],
    access: { kind: 'local' },
    onCommit: (transaction) => committed.push(transaction),
    ...options,
  });
  lakes.push(lake);
  return { lake, committed };
}

/** The release with the policy at `sections`, scheduled `inMs` from now. */
async function schedule(lake: Lake, inMs: number, sections = 8) {
  await lake.act([
    {
      actionType: 'sanity.action.release.create',
      releaseId: NAME,
      metadata: { title: 'Policy effective 1 January', releaseType: 'scheduled' },
    },
    { actionType: 'sanity.action.document.version.create', publishedId: 'policy', baseId: 'policy', versionId: VERSION },
    { actionType: 'sanity.action.document.edit', draftId: VERSION, publishedId: 'policy', patch: { set: { sections } } },
  ]);
  const publishAt = new Date(Date.now() + inMs).toISOString();
  await lake.act([{ actionType: 'sanity.action.release.schedule', releaseId: NAME, publishAt }]);
  return publishAt;
}

const publishes = (transactions: Transaction[]) =>
  transactions.filter((t) => t.changes.some((change) => change.id === RELEASE_ID && change.after?.state === 'published'));

describe('the scheduler', () => {
  it('publishes a release at its time, once, and its owner hears of it within the commit, as of any other', async () => {
    const { lake, committed } = await open();
    await schedule(lake, 150);
    expect(lake.dataset.get('policy')?.sections).toBe(7);
    await vi.waitFor(() => expect(publishes(committed)).toHaveLength(1), { timeout: 5000 });
    expect(lake.dataset.get(RELEASE_ID)?.state).toBe('published');
    expect(lake.dataset.get('policy')?.sections).toBe(8);
    expect(lake.dataset.get(VERSION)).toBeUndefined();
    // Given time to misfire, it does not publish again.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(publishes(committed)).toHaveLength(1);
  });

  it('keeps no timer past what setTimeout holds, and publishes nothing far ahead; unscheduled, it sets none', async () => {
    const timeout = vi.spyOn(globalThis, 'setTimeout');
    const { lake } = await open();
    await schedule(lake, 1000 * 60 * 60 * 24 * 365 * 80);
    const delays = timeout.mock.calls.map(([, delay]) => delay ?? 0);
    expect(Math.max(...delays)).toBe(MAX_TIMER_MS);
    await lake.act([{ actionType: 'sanity.action.release.unschedule', releaseId: NAME }]);
    expect(lake.dataset.get(RELEASE_ID)?.state).toBe('active');
    expect(lake.dataset.get('policy')?.sections).toBe(7);
  });

  it('refuses the whole release when a version breaks the schema: nothing published, the release active with the reason', async () => {
    const validate: Validate = async (doc) => (doc.sections === 7 ? [] : [`sections: a policy has 7, not ${String(doc.sections)}`]);
    const { lake, committed } = await open({ validate });
    await schedule(lake, 100, 6);
    await vi.waitFor(() => expect(lake.dataset.get(RELEASE_ID)?.error).toBeDefined(), { timeout: 5000 });
    expect(lake.dataset.get(RELEASE_ID)).toMatchObject({ state: 'active', error: { message: expect.stringContaining('not 6') } });
    expect(lake.dataset.get(RELEASE_ID)).not.toHaveProperty('publishAt');
    expect(lake.dataset.get('policy')).toMatchObject({ sections: 7, _rev: 'seed' });
    expect(lake.dataset.get(VERSION)).toMatchObject({ sections: 6 });
    expect(publishes(committed)).toHaveLength(0);
  });
});

describe('a scheduled draft', () => {
  it('is a release of one document, made from its draft as the Studio sends it, and published at its time', async () => {
    const { lake } = await open();
    await lake.act([
      { actionType: 'sanity.action.document.edit', draftId: 'drafts.policy', publishedId: 'policy', patch: { set: { sections: 8 } } },
    ]);
    const publishAt = new Date(Date.now() + 100).toISOString();
    // The Studio's createScheduledDraft: three requests, in this order.
    await lake.act([
      {
        actionType: 'sanity.action.release.create',
        releaseId: NAME,
        metadata: { title: 'Scheduled draft', description: '', releaseType: 'scheduled', cardinality: 'one', intendedPublishAt: publishAt },
      },
    ]);
    const draft = lake.dataset.get('drafts.policy')!;
    await lake.act([
      {
        actionType: 'sanity.action.document.version.create',
        publishedId: 'policy',
        baseId: 'drafts.policy',
        versionId: VERSION,
        ifBaseRevisionId: draft._rev,
      },
    ]);
    await lake.act([{ actionType: 'sanity.action.release.schedule', releaseId: NAME, publishAt }]);
    await vi.waitFor(() => expect(lake.dataset.get(RELEASE_ID)?.state).toBe('published'), { timeout: 5000 });
    expect(lake.dataset.get('policy')?.sections).toBe(8);
    expect(lake.dataset.get(RELEASE_ID)?.metadata).toMatchObject({ cardinality: 'one', intendedPublishAt: publishAt });
  });
});

describe('a schedule missed while no lake ran', () => {
  it('is published when the dataset opens, in the file with its release, and not again at the next open', async () => {
    const file = path.join(dir, 'production.ndjson');
    const history = { file: path.join(dir, 'history.ndjson') };
    const past = '2026-01-01T00:00:00.000Z';
    const release = {
      _id: RELEASE_ID,
      _type: 'system.release',
      name: NAME,
      state: 'scheduled',
      publishAt: past,
      metadata: { title: 'Due' },
    };
    const version = { ...POLICY, _id: VERSION, _rev: 'v1', sections: 8 };
    await writeFile(file, [POLICY, release, version].map((doc) => JSON.stringify(doc)).join('\n') + '\n');

    const { lake } = await open({ file, history });
    expect(lake.dataset.get(RELEASE_ID)).toMatchObject({ state: 'published', publishAt: past, finalDocumentStates: [{ id: VERSION }] });
    // One write of one file holds the publish and the release's state: a kill leaves both or neither.
    const written = new Map(parseNdjson(readFileSync(file, 'utf8')).map((doc) => [doc._id, doc]));
    expect(written.get('policy')).toMatchObject({ sections: 8 });
    expect(written.get(RELEASE_ID)).toMatchObject({ state: 'published' });
    expect(written.has(VERSION)).toBe(false);
    const rev = lake.dataset.get('policy')?._rev;
    lake.close();
    lakes.splice(0);

    const transactions: Transaction[] = [];
    const again = await open({ file, history });
    again.lake.dataset.subscribe((transaction) => transactions.push(transaction));
    expect(again.lake.dataset.get('policy')?._rev).toBe(rev);
    expect(publishes(transactions)).toHaveLength(0);
  });
});

describe('a kill while a release is published', () => {
  it('leaves all of it or none, and the next start publishes what is left, once', async () => {
    const file = path.join(dir, 'production.ndjson');
    const release = {
      _id: RELEASE_ID,
      _type: 'system.release',
      name: NAME,
      state: 'scheduled',
      publishAt: '2026-01-01T00:00:00.000Z',
      metadata: {},
    };
    // Big enough that the write is still under way when the kill comes.
    const bulk = Array.from({ length: 3000 }, (_, i) => ({ _id: `bulk-${i}`, _type: 'bulk', text: 'x'.repeat(300) }));
    const versions = ['policy', 'bulk-0', 'bulk-1'].map((id) => ({ _id: `versions.${NAME}.${id}`, _type: 'bulk', text: `new ${id}` }));
    await writeFile(file, [POLICY, ...bulk, release, ...versions].map((doc) => JSON.stringify(doc)).join('\n') + '\n');
    const script = `
      import { Lake } from ${JSON.stringify(fileURLToPath(new URL('./lake.ts', import.meta.url)))};
      await Lake.open({ file: ${JSON.stringify(file)}, access: { kind: 'local' } });
      setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'ignore' });
    const closed = once(child, 'close');
    // Killed the moment the publish's write shows its temporary file.
    const deadline = Date.now() + 20_000;
    while (!readdirSync(dir).some((name) => name.endsWith('.tmp')) && child.exitCode === null && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 1));
    child.kill('SIGKILL');
    await closed;

    const onDisk = new Map(parseNdjson(readFileSync(file, 'utf8')).map((doc) => [doc._id, doc]));
    const published = onDisk.get(RELEASE_ID)?.state === 'published';
    for (const { _id, text } of versions) {
      expect(onDisk.has(_id)).toBe(!published);
      expect(onDisk.get(_id.split('.')[2]!)?.text === text).toBe(published);
    }

    const { lake } = await open({ file });
    expect(lake.dataset.get(RELEASE_ID)?.state).toBe('published');
    expect(lake.dataset.get('bulk-1')?.text).toBe('new bulk-1');
  });
});
