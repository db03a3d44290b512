import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { appendFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { applyPatch } from 'mendoza';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { Caller } from './access';
import type { SanityDocument } from './documents';
import { createHandler, type LakeHandler } from './handler';
import { FILE_AUTHOR } from './history';
import { Lake, type LakeOptions } from './lake';
import { userNamed } from './project-api';

/**
 * The lake's history through Sanity's history APIs, as Studio 5.31.2 asks for it (../shared/STUDIO-HISTORY.md):
 * the transactions of a document with their mendoza effects and bounds, its events, documents at a revision,
 * a time or their last revision (deleted ones included), kept on disk across restarts, bounded, read from
 * the file's commits in git, and closed to readers without the token as document reads are.
 */

const LOOPBACK: Caller = { address: '127.0.0.1', throughProxy: false };
const API = '/v2025-02-19';
const POLICY = { _id: 'policy', _type: 'policy', title: 'Privacy policy', _rev: 'seed-rev', _updatedAt: '2026-11-20T10:00:00Z' };
const SETTINGS = { _id: 'settings', _type: 'settings', name: 'Hallway', _rev: 'seed-settings', _updatedAt: '2026-11-21T10:00:00Z' };

let dir: string;
let file: string;
const lakes: Lake[] = [];

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'lake-history-'));
  file = path.join(dir, 'seed', 'production.ndjson');
  await writeSeed([POLICY, SETTINGS]);
});
afterEach(async () => {
  for (const lake of lakes.splice(0)) lake.close();
  await rm(dir, { recursive: true, force: true });
});

async function writeSeed(documents: object[]) {
  await rm(path.dirname(file), { recursive: true, force: true });
  execFileSync('mkdir', ['-p', path.dirname(file)]);
  await writeFile(file, documents.map((doc) => `${JSON.stringify(doc)}\n`).join(''));
}

type Opened = { lake: Lake; handle: LakeHandler };

async function open(options: Partial<LakeOptions> = {}): Promise<Opened> {
  const lake = await Lake.open({
    file,
    history: { file: path.join(dir, 'data', 'history.ndjson'), lagMs: 0 },
    access: { kind: 'local' },
    user: userNamed('local-editor', 'Local editor'),
    ...options,
  });
  lakes.push(lake);
  return { lake, handle: createHandler(lake) };
}

async function call({ handle }: Opened, target: string, init: RequestInit = {}) {
  const headers = { host: 'localhost:3000', ...(init.headers as Record<string, string>) };
  return handle(new Request(`http://localhost:3000${API}${target}`, { ...init, headers }), LOOPBACK);
}
const get = async (at: Opened, target: string) => {
  const answer = await call(at, target);
  expect(answer.status, `${target}: ${await answer.clone().text()}`).toBe(200);
  return answer;
};
const lines = async (at: Opened, target: string) =>
  (await (await get(at, target)).text())
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Transaction);
const act = (at: Opened, actions: object[], transactionId?: string) => at.lake.act(actions, transactionId);
const edit = (at: Opened, set: object, transactionId?: string) =>
  act(at, [{ actionType: 'sanity.action.document.edit', draftId: 'drafts.policy', publishedId: 'policy', patch: { set } }], transactionId);
const publish = (at: Opened) =>
  act(at, [{ actionType: 'sanity.action.document.publish', draftId: 'drafts.policy', publishedId: 'policy' }]);
const events = async (at: Opened, id: string, query = '') =>
  (await (await get(at, `/data/history/production/events/documents/${id}${query}`)).json()) as {
    events: Record<string, { type: string; author: string; timestamp: string; [key: string]: unknown }[]>;
    nextCursor: string;
  };
const documentsAt = async (at: Opened, ids: string, query: string) =>
  ((await (await get(at, `/data/history/production/documents/${ids}?${query}`)).json()) as { documents: SanityDocument[] }).documents;

type Transaction = {
  id: string;
  timestamp: string;
  author: string;
  documentIDs: string[];
  mutations?: object[];
  effects?: Record<string, { apply: unknown[]; revert: unknown[] }>;
};

/** An edit, a second edit, a publish: the draft's life, as the Studio makes it. */
async function editAndPublish(at: Opened) {
  await edit(at, { title: 'Policy, first edit' }, 'tx-edit-1');
  await edit(at, { title: 'Policy, second edit' }, 'tx-edit-2');
  const { transactionId } = await publish(at);
  return transactionId;
}

describe('transactions', () => {
  it('lists what touched the documents, oldest first, with effects that rebuild each revision from the one before', async () => {
    const at = await open();
    const published = await editAndPublish(at);
    const all = await lines(at, '/data/history/production/transactions/policy,drafts.policy?effectFormat=mendoza');
    expect(all.map((tx) => tx.id)).toEqual(['seed-rev', 'tx-edit-1', 'tx-edit-2', published]);
    expect(all.map((tx) => tx.author)).toEqual([FILE_AUTHOR, 'local-editor', 'local-editor', 'local-editor']);
    expect(all[3]!.documentIDs.sort()).toEqual(['drafts.policy', 'policy']);
    // The draft, rebuilt by its effects alone, is the draft that was published.
    let draft: unknown = null;
    for (const tx of all) if (tx.effects!['drafts.policy']) draft = applyPatch(draft, tx.effects!['drafts.policy'].apply) ?? draft;
    expect(draft).toMatchObject({ title: 'Policy, second edit' });
    // An edit's effect names the field it changed, not the whole document again.
    expect(JSON.stringify(all[2]!.effects!['drafts.policy']!.apply)).not.toContain('policy');
    expect(all[2]!.mutations).toEqual([
      { patch: { id: 'drafts.policy', ifRevisionID: 'tx-edit-1', set: { title: 'Policy, second edit' } } },
    ]);
  });

  it('bounds inclusively from and to a transaction (an empty one is no bound), forwards or newest first, to a limit', async () => {
    const at = await open();
    const published = await editAndPublish(at);
    const ids = async (query: string) =>
      (await lines(at, `/data/history/production/transactions/drafts.policy?${query}`)).map((tx) => tx.id);
    expect(await ids('fromTransaction=tx-edit-1&toTransaction=tx-edit-2')).toEqual(['tx-edit-1', 'tx-edit-2']);
    expect(await ids('fromTransaction=&toTransaction=tx-edit-2')).toEqual(['tx-edit-1', 'tx-edit-2']);
    expect(await ids('fromTransaction=tx-edit-2')).toEqual(['tx-edit-2', published]);
    expect(await ids('reverse=true&limit=2')).toEqual([published, 'tx-edit-2']);
    expect(await ids('reverse=true&toTransaction=tx-edit-2')).toEqual(['tx-edit-2', 'tx-edit-1']);
    expect(await ids('fromTransaction=tx-edit-2&toTransaction=tx-edit-1')).toEqual([]);
  });

  it('leaves out content, mutations and the other documents when asked, and effects unless asked for mendoza', async () => {
    const at = await open();
    await editAndPublish(at);
    const [last] = (
      await lines(
        at,
        '/data/history/production/transactions/drafts.policy?excludeContent=true&includeIdentifiedDocumentsOnly=true&effectFormat=mendoza',
      )
    ).slice(-1);
    expect(last!.documentIDs).toEqual(['drafts.policy']);
    expect(Object.keys(last!.effects!)).toEqual(['drafts.policy']);
    expect(last!.mutations).toEqual([{ delete: { id: 'drafts.policy' } }]);
    const [plain] = await lines(at, '/data/history/production/transactions/policy?excludeMutations=true');
    expect(plain).not.toHaveProperty('mutations');
    expect(plain).not.toHaveProperty('effects');
  });

  it('never lists a system document, and answers a transaction id it does not know with 404', async () => {
    const at = await open();
    await at.lake.mutate([{ createOrReplace: { _id: 'sanity-preview-url-secret.s1', _type: 'sanity.previewUrlSecret', secret: 'shh' } }]);
    expect(await (await get(at, '/data/history/production/transactions/sanity-preview-url-secret.s1')).text()).toBe('');
    const unknown = await call(at, '/data/history/production/transactions/policy?fromTransaction=nope');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { type: 'notFoundError' } });
  });
});

describe('the lag behind the listener', () => {
  it('leaves the newest second out of an answer that runs up to now, not out of one bounded by it', async () => {
    const at = await open({ history: { file: path.join(dir, 'data', 'history.ndjson') } });
    await edit(at, { title: 'Just now' }, 'tx-now');
    const ids = async (query: string) =>
      (await lines(at, `/data/history/production/transactions/drafts.policy?${query}`)).map((tx) => tx.id);
    expect(await ids('')).toEqual([]);
    expect(await ids('toTransaction=tx-now')).toEqual(['tx-now']);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await ids('')).toEqual(['tx-now']);
  });
});

describe('events', () => {
  it('tell the draft created, published, discarded, and the document deleted, newest first, with their authors', async () => {
    const at = await open();
    const published = await editAndPublish(at);
    await edit(at, { title: 'To be discarded' }, 'tx-edit-3');
    await act(at, [{ actionType: 'sanity.action.document.discard', draftId: 'drafts.policy' }], 'tx-discard');
    const draftEvents = (await events(at, 'drafts.policy')).events['drafts.policy']!;
    expect(draftEvents.map((event) => event.type)).toEqual([
      'deleteDocumentVersion',
      'createDocumentVersion',
      'publishDocumentVersion',
      'createDocumentVersion',
      'publishDocumentVersion',
    ]);
    expect(draftEvents[2]).toMatchObject({
      documentId: 'policy',
      revisionId: published,
      versionRevisionId: 'tx-edit-2',
      author: 'local-editor',
    });
    // The seed as the lake found it: published, dated by the document itself.
    expect(draftEvents[4]).toMatchObject({ revisionId: 'seed-rev', timestamp: '2026-11-20T10:00:00.000000Z', author: FILE_AUTHOR });
    expect((await events(at, 'policy')).events.policy!.map((event) => event.type)).toEqual([
      'publishDocumentVersion',
      'publishDocumentVersion',
    ]);

    await act(at, [{ actionType: 'sanity.action.document.delete', publishedId: 'policy', includeDrafts: ['drafts.policy'] }]);
    expect((await events(at, 'drafts.policy')).events['drafts.policy']![0]!.type).toBe('deleteDocumentGroup');
  });

  it('keep the order they happened in at editing speed: times with microseconds, strictly increasing, a millisecond apart', async () => {
    // Every commit in one millisecond of the system clock, and a restart with the clock set back.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-11-27T18:09:20.315Z') });
    try {
      let at = await open();
      await editAndPublish(at);
      at.lake.close();
      vi.setSystemTime(Date.parse('2026-11-27T18:09:19.000Z'));
      at = await open();
      await edit(at, { title: 'After the restart' });
      await publish(at);
      const times = (await lines(at, '/data/history/production/transactions/policy,drafts.policy')).map((tx) => tx.timestamp);
      expect(
        times.slice(1).every((time) => /^2026-11-27T18:09:2\d\.\d{6}Z$/.test(time)),
        times.join(' '),
      ).toBe(true);
      // Strictly increasing as the Studio reads them (Date.parse keeps milliseconds).
      const parsed = times.map((time) => Date.parse(time));
      expect(
        parsed.every((time, n) => n === 0 || time > parsed[n - 1]!),
        times.join(' '),
      ).toBe(true);
      // The Studio sorts events by Date.parse, newest first: a draft created and published at once reads "published".
      const listed = (await events(at, 'drafts.policy')).events['drafts.policy']!;
      const sorted = listed.toSorted((a, b) => Date.parse(b.timestamp) - Date.parse(a.timestamp));
      expect(sorted.map((event) => event.type).slice(0, 4)).toEqual([
        'publishDocumentVersion',
        'createDocumentVersion',
        'publishDocumentVersion',
        'createDocumentVersion',
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('come a page at a time, the next page from nextCursor', async () => {
    const at = await open();
    for (let n = 0; n < 3; n += 1) {
      await edit(at, { title: `Edit ${n}` });
      await publish(at);
    }
    const pages: string[][] = [];
    let cursor = '';
    do {
      const page = await events(at, 'policy', `?limit=2${cursor ? `&nextCursor=${cursor}` : ''}`);
      pages.push(page.events.policy!.map((event) => String(event.revisionId)));
      cursor = page.nextCursor;
    } while (cursor !== '' && pages.length < 10);
    expect(pages.map((page) => page.length)).toEqual([2, 2]);
    expect(new Set(pages.flat()).size).toBe(4);
  });
});

describe('documents at a revision', () => {
  it('are the documents as that transaction left them, by revision, time or last revision, deleted ones included', async () => {
    const at = await open();
    const published = await editAndPublish(at);
    expect(await documentsAt(at, 'drafts.policy', 'revision=tx-edit-1')).toMatchObject([
      { _id: 'drafts.policy', title: 'Policy, first edit', _rev: 'tx-edit-1' },
    ]);
    expect(await documentsAt(at, 'policy,drafts.policy', `revision=${published}`)).toMatchObject([
      { _id: 'policy', title: 'Policy, second edit', _rev: published },
    ]);
    // The seed's publish had no draft: the draft at it is the published document, as the Studio compares with it.
    expect(await documentsAt(at, 'drafts.policy', 'revision=seed-rev')).toMatchObject([
      { _id: 'drafts.policy', title: 'Privacy policy', _rev: 'seed-rev' },
    ]);
    expect(await documentsAt(at, 'policy', 'time=2026-11-20T12:00:00Z')).toMatchObject([{ title: 'Privacy policy' }]);
    expect(await documentsAt(at, 'policy', 'revision=unknown-rev')).toEqual([]);

    await act(at, [{ actionType: 'sanity.action.document.delete', publishedId: 'policy' }]);
    const last = await documentsAt(at, 'policy,drafts.policy', 'lastRevision=true');
    // As the document was when it was deleted: its draft had gone with the publish.
    expect(last.map((doc) => [doc._id, doc.title])).toEqual([['policy', 'Policy, second edit']]);
  });

  it('restore as the Studio sends it (create, then replaceDraft carrying _rev and _createdAt) brings a deleted document back', async () => {
    const at = await open();
    // A draft discarded before the deletion is not part of the document's last revision.
    await edit(at, { title: 'A discarded draft' });
    await act(at, [{ actionType: 'sanity.action.document.discard', draftId: 'drafts.policy' }]);
    await act(at, [{ actionType: 'sanity.action.document.delete', publishedId: 'policy' }]);
    expect((await documentsAt(at, 'policy,drafts.policy', 'lastRevision=true')).map((doc) => doc._id)).toEqual(['policy']);
    const [doc] = await documentsAt(at, 'policy,drafts.policy', 'lastRevision=true');
    // As the Studio's restore: without _updatedAt, with the _rev and _createdAt it had.
    const { _updatedAt: _, ...restored } = { ...doc!, _id: 'drafts.policy' } as SanityDocument & { _updatedAt?: string };
    expect(restored._rev).toBeDefined();
    await act(at, [
      { actionType: 'sanity.action.document.create', publishedId: 'policy', attributes: restored, ifExists: 'fail' },
      { actionType: 'sanity.action.document.replaceDraft', publishedId: 'policy', attributes: restored },
    ]);
    expect(at.lake.dataset.get('drafts.policy')).toMatchObject({ title: 'Privacy policy' });
    expect((await events(at, 'drafts.policy')).events['drafts.policy']![0]!.type).toBe('createDocumentVersion');
  });
});

describe('a history that lasts', () => {
  it("is the same after the lake is opened again, and takes in what changed in the file meanwhile as the file's", async () => {
    const first = await open();
    const published = await editAndPublish(first);
    const before = await lines(first, '/data/history/production/transactions/policy,drafts.policy?effectFormat=mendoza');
    first.lake.close();
    const reopened = await open();
    expect(await lines(reopened, '/data/history/production/transactions/policy,drafts.policy?effectFormat=mendoza')).toEqual(before);
    reopened.lake.close();

    // Edited by hand (or a checkout) while no lake ran.
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('Policy, second edit', 'Policy, edited in the file'));
    const third = await open();
    const after = await lines(third, '/data/history/production/transactions/policy?effectFormat=mendoza');
    expect(after.map((tx) => tx.author)).toEqual([FILE_AUTHOR, 'local-editor', FILE_AUTHOR]);
    expect(after[1]!.id).toBe(published);
    expect(await documentsAt(third, 'policy', '')).toMatchObject([{ title: 'Policy, edited in the file' }]);
  });

  it('lists a release published when the lake opens (it fell due while no lake ran) at once, in transactions and events', async () => {
    const first = await open();
    await act(first, [
      { actionType: 'sanity.action.release.create', releaseId: 'rNext', metadata: { title: 'Next policy', releaseType: 'scheduled' } },
      { actionType: 'sanity.action.document.version.create', publishedId: 'policy', baseId: 'policy', versionId: 'versions.rNext.policy' },
      {
        actionType: 'sanity.action.document.edit',
        draftId: 'versions.rNext.policy',
        publishedId: 'policy',
        patch: { set: { title: 'Next' } },
      },
    ]);
    const publishAt = new Date(Date.now() + 200).toISOString();
    await act(first, [{ actionType: 'sanity.action.release.schedule', releaseId: 'rNext', publishAt }]);
    first.lake.close();
    lakes.splice(0);
    await new Promise((resolve) => setTimeout(resolve, 400));

    // With Sanity's lag (HISTORY_LAG_MS), asked at once: no listener could have brought a transaction made before the lake served.
    const reopened = await open({ history: { file: path.join(dir, 'data', 'history.ndjson') } });
    expect(reopened.lake.dataset.get('policy')).toMatchObject({ title: 'Next' });
    const listed = await lines(reopened, '/data/history/production/transactions/policy');
    expect(listed.filter((tx) => tx.documentIDs.includes('versions.rNext.policy'))).toHaveLength(1);
    const kinds = (await events(reopened, 'policy')).events.policy!.map((event) => event.type);
    expect(kinds[0]).toBe('publishDocumentVersion');
  });

  it('drops a torn last line (a process killed mid-append), and moves a file it cannot read aside rather than losing it', async () => {
    const first = await open();
    await edit(first, { title: 'Kept' }, 'tx-kept');
    first.lake.close();
    const log = path.join(dir, 'data', 'history.ndjson');
    await appendFile(log, '{"id":"tx-torn","timestamp":');
    const second = await open();
    expect((await lines(second, '/data/history/production/transactions/drafts.policy')).map((tx) => tx.id)).toEqual(['tx-kept']);
    await edit(second, { title: 'After the tear' }, 'tx-after');
    expect(
      (await readFile(log, 'utf8'))
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as object),
    ).toHaveLength(3);
    second.lake.close();

    await writeFile(log, 'not json\n');
    const third = await open();
    expect((await readdir(path.dirname(log))).some((name) => name.startsWith('history.ndjson.unreadable-'))).toBe(true);
    expect((await lines(third, '/data/history/production/transactions/policy')).map((tx) => tx.id)).toEqual(['seed-rev']);
  });

  it('survives its writer being killed (SIGKILL) mid-way: every kept transaction applies, and the file and the history agree', async () => {
    const log = path.join(dir, 'data', 'history.ndjson');
    const script = `
      import { Dataset } from ${JSON.stringify(fileURLToPath(new URL('./dataset.ts', import.meta.url)))};
      const dataset = await Dataset.open({ file: ${JSON.stringify(file)}, history: { file: ${JSON.stringify(log)} } });
      for (let n = 1; ; n += 1) {
        await dataset.commit(async (tx) => void tx.put('policy', { _id: 'policy', _type: 'policy', title: 'Version ' + n }));
        process.stdout.write(n + '\\n');
      }`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let printed = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (printed += chunk));
    while (printed.split('\n').filter(Boolean).length < 30) await new Promise((resolve) => setTimeout(resolve, 5));
    const closed = once(child, 'close');
    child.kill('SIGKILL');
    await closed;

    const at = await open();
    const onDisk = (await readFile(file, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as SanityDocument);
    const policy = onDisk.find((doc) => doc._id === 'policy')!;
    const kept = await lines(at, '/data/history/production/transactions/policy?limit=1000');
    expect(kept.length).toBeGreaterThanOrEqual(30);
    // The history's newest state of the policy is the file's: the transaction the kill cut short is either
    // in both, or in the file only and then taken in as the file's.
    expect(await documentsAt(at, 'policy', '')).toMatchObject([{ title: policy.title }]);
    expect(kept.at(-1)!.author === 'local' || kept.at(-1)!.author === FILE_AUTHOR).toBe(true);
    for (const [index, tx] of kept.slice(1).entries())
      expect(await documentsAt(at, 'policy', `revision=${tx.id}`), `revision ${index}`).toHaveLength(1);
  });

  it('keeps at most its bound, folding the oldest transactions into its base, and says so', async () => {
    const at = await open({
      history: { file: path.join(dir, 'data', 'history.ndjson'), lagMs: 0, limits: { entries: 8, bytes: 1_000_000 } },
    });
    for (let n = 0; n < 20; n += 1) await edit(at, { title: `Edit ${n}` }, `tx-${n}`);
    const kept = await lines(at, '/data/history/production/transactions/policy,drafts.policy');
    expect(kept.length).toBeLessThanOrEqual(9);
    expect(kept.at(-1)!.id).toBe('tx-19');
    expect(kept[0]!.author).toBe('earlier-edits');
    // The oldest kept revision still opens, and the newest is the document itself.
    expect(await documentsAt(at, 'drafts.policy', `revision=${kept[1]!.id}`)).toHaveLength(1);
    expect(await documentsAt(at, 'drafts.policy', 'revision=tx-19')).toMatchObject([{ title: 'Edit 19' }]);
    at.lake.close();
    const reopened = await open({
      history: { file: path.join(dir, 'data', 'history.ndjson'), lagMs: 0, limits: { entries: 8, bytes: 1_000_000 } },
    });
    expect(await lines(reopened, '/data/history/production/transactions/policy,drafts.policy')).toEqual(kept);
  });
});

describe('history from the repository', () => {
  const git = (...args: string[]) => execFileSync('git', ['-C', dir, ...args], { stdio: 'pipe' });
  const commit = async (title: string, who: string, when: string) => {
    await writeSeed([{ ...POLICY, title, _rev: `rev-${title.length}-${who}` }, SETTINGS]);
    git('add', '-A');
    execFileSync('git', ['-C', dir, 'commit', '-q', '-m', title], {
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: who,
        GIT_AUTHOR_EMAIL: `${who}@example.com`,
        GIT_COMMITTER_NAME: who,
        GIT_COMMITTER_EMAIL: `${who}@example.com`,
        GIT_AUTHOR_DATE: when,
        GIT_COMMITTER_DATE: when,
      },
    });
  };

  it("shows each commit that changed a document as a revision, by the commit's author at its time, then the lake's own", async () => {
    git('init', '-q');
    await commit('Privacy policy, first version', 'Ada', '2026-10-01T09:00:00Z');
    await commit('Privacy policy, reviewed', 'Grace', '2026-11-01T09:00:00Z');
    const at = await open();
    await edit(at, { title: 'Not committed yet' }, 'tx-local');
    const list = (await events(at, 'drafts.policy')).events['drafts.policy']!;
    expect(list.map((event) => [event.type, event.timestamp])).toEqual([
      ['createDocumentVersion', expect.any(String)],
      ['publishDocumentVersion', '2026-11-01T09:00:00.000000Z'],
      ['publishDocumentVersion', '2026-10-01T09:00:00.000000Z'],
    ]);
    const users = (await (await get(at, `/users/${list[1]!.author},${list[2]!.author}`)).json()) as { displayName: string }[];
    expect(users.map((user) => user.displayName)).toEqual(['Grace', 'Ada']);
    expect(await documentsAt(at, 'policy', `revision=${String(list[2]!.revisionId)}`)).toMatchObject([
      { title: 'Privacy policy, first version' },
    ]);
    // The document's own revision (the file's _rev) names the commit's.
    expect(await documentsAt(at, 'policy', `revision=rev-${'Privacy policy, reviewed'.length}-Grace`)).toMatchObject([
      { title: 'Privacy policy, reviewed' },
    ]);
  });

  it('starts at the clone without git, or for a file git does not track', async () => {
    const at = await open();
    expect((await events(at, 'policy')).events.policy).toHaveLength(1);
  });
});

describe('the token lake', () => {
  it('shows a reader without the token no draft in events, transactions or revisions', async () => {
    const at = await open({
      access: { kind: 'token', token: 'the-token' },
      history: { lagMs: 0 },
      file: undefined,
      documents: [POLICY, SETTINGS],
    });
    await edit(at, { title: 'A secret draft' }, 'tx-draft');
    const anonymous = async (target: string) => (await call(at, target)).text();
    expect(JSON.parse(await anonymous('/data/history/production/events/documents/drafts.policy'))).toEqual({
      events: { 'drafts.policy': [] },
      nextCursor: '',
    });
    expect(await anonymous('/data/history/production/transactions/policy,drafts.policy?effectFormat=mendoza')).not.toContain('secret');
    expect(await anonymous('/data/history/production/documents/drafts.policy?revision=tx-draft')).toBe('{"documents":[]}');
    const token = { headers: { authorization: 'Bearer the-token' } };
    const signedIn = await call(at, '/data/history/production/documents/drafts.policy?revision=tx-draft', token);
    expect(await signedIn.text()).toContain('A secret draft');
    const draftHistory = await call(at, '/data/history/production/transactions/policy,drafts.policy?toTransaction=tx-draft', token);
    expect(await draftHistory.text()).toContain('"id":"tx-draft"');
  });
});

describe('crafted requests', () => {
  it("are answered with a 4xx in Sanity's shape, never a 500, and within their bounds", async () => {
    const at = await open();
    await editAndPublish(at);
    const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)]!;
    const ids = [
      'policy',
      'drafts.policy',
      '%ZZ',
      '',
      ',',
      'a'.repeat(200),
      Array.from({ length: 150 }, (_, i) => `d${i}`).join(','),
      'policy,%E0',
    ];
    const values = [
      '',
      'true',
      'false',
      'x',
      '-1',
      '0',
      '99999999999',
      '1e3',
      'tx-edit-1',
      'nope',
      '%00',
      '2026-11-20T12:00:00Z',
      'not-a-date',
    ];
    const params = [
      'limit',
      'reverse',
      'fromTransaction',
      'toTransaction',
      'excludeContent',
      'excludeMutations',
      'includeIdentifiedDocumentsOnly',
      'effectFormat',
      'nextCursor',
      'revision',
      'lastRevision',
      'time',
    ];
    const crafted = () => {
      const kind = pick(['transactions/', 'events/documents/', 'documents/', 'events/', 'transactions/a/b']);
      const query = Array.from({ length: 3 }, () => `${pick(params)}=${pick(values)}`).join('&');
      return { kind, target: `/data/history/production/${kind}${pick(ids)}?${query}` };
    };
    // Two well-formed listings first: the bound is checked on answers that list something, whatever the dice
    // give (400 random requests alone listed nothing in 4 runs of 30: most mixes hold a refused value).
    const requests = [
      { kind: 'transactions/', target: '/data/history/production/transactions/policy,drafts.policy' },
      { kind: 'transactions/', target: '/data/history/production/transactions/policy?reverse=true&excludeContent=true' },
      ...Array.from({ length: 400 }, crafted),
    ];
    const statuses = new Set<number>();
    let listed = 0;
    for (const { kind, target } of requests) {
      const answer = await call(at, target);
      const text = await answer.text();
      statuses.add(answer.status);
      if (answer.status >= 500) throw new Error(`${answer.status} for ${target}: ${text}`);
      if (answer.status >= 400) expect(JSON.parse(text)).toSatisfy((body: { error?: unknown }) => body.error !== undefined);
      // No answer lists more than its bound, and each line is a transaction.
      else if (kind === 'transactions/') {
        const found = text.split('\n').filter(Boolean);
        expect(found.length).toBeLessThanOrEqual(1000);
        for (const line of found) expect(JSON.parse(line)).toMatchObject({ id: expect.any(String), documentIDs: expect.any(Array) });
        listed += found.length;
      }
    }
    expect(listed).toBeGreaterThan(0);
    expect([...statuses].some((status) => status === 200)).toBe(true);
    expect([...statuses].some((status) => status === 400)).toBe(true);
  });
});
