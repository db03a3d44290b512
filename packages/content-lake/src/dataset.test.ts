import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { Dataset, HAND_EDIT_IDENTITY } from './dataset';
import { parseNdjson, type SanityDocument } from './documents';
import { createHandler } from './handler';
import { Lake } from './lake';
import type { Transaction } from './transaction';

/**
 * The dataset written through to its files, in a temporary directory: what is on disk after a commit,
 * which file a document goes to, one writing process at a time (crashes included), and edits made to the
 * file by hand while the dataset is open.
 */

const DATASET_MODULE = fileURLToPath(new URL('./dataset.ts', import.meta.url));

// Written the way a person or another tool might: spaced separators that JSON.stringify would not make.
const POLICY_LINE = '{"_id": "policy", "_type": "policy", "title": "Privacy policy", "_rev": "rev-p"}';
const POST_LINE = '{"_id":"post-1","_type":"post","title":"First","_rev":"rev-1"}';

let dir: string;
let file: string;
let systemFile: string;
const children: ChildProcess[] = [];

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'lake-dataset-'));
  file = path.join(dir, 'production.ndjson');
  systemFile = path.join(dir, 'system', 'system.ndjson');
  await writeFile(file, `${POLICY_LINE}\n${POST_LINE}\n`);
});
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

const open = (options: Partial<Parameters<typeof Dataset.open>[0]> = {}) => Dataset.open({ file, systemFile, ...options });
const put = (dataset: Dataset, doc: SanityDocument) => dataset.commit(async (tx) => void tx.put(doc._id, doc));
const lines = (target = file) => readFileSync(target, 'utf8').split('\n').filter(Boolean);
const idsIn = (target: string) => parseNdjson(readFileSync(target, 'utf8')).map((doc) => doc._id);
const SECRET: SanityDocument = { _id: 'sanity-preview-url-secret.s1', _type: 'sanity.previewUrlSecret', secret: 'shh' };

describe('writing through to the files', () => {
  it('has a commit on disk once it resolves, and a new open of the files reads everything back', async () => {
    const dataset = await open();
    await put(dataset, { _id: 'post-2', _type: 'post', title: 'Second' });
    await put(dataset, SECRET);
    expect(parseNdjson(readFileSync(file, 'utf8')).find((doc) => doc._id === 'post-2')).toMatchObject({ title: 'Second' });
    const reopened = await open();
    expect(reopened.documents()).toEqual(dataset.documents());
  });

  it('keeps the exact line of every document a commit did not change', async () => {
    const dataset = await open();
    await put(dataset, { _id: 'post-1', _type: 'post', title: 'First, edited' });
    const [policy, post] = lines();
    expect(policy).toBe(POLICY_LINE);
    expect(JSON.parse(post!)).toMatchObject({ _id: 'post-1', title: 'First, edited' });
  });

  it('writes each document as it is, commit after commit, in _id order, whatever order they were added in', async () => {
    const dataset = await open();
    // Added after post-1 but sorted before it: the file's order and the dataset's differ.
    await put(dataset, { _id: 'drafts.post-1', _type: 'post', title: 'Draft' });
    await put(dataset, { _id: 'post-1', _type: 'post', title: 'First, edited' });
    await put(dataset, { _id: 'drafts.post-1', _type: 'post', title: 'Draft, edited' });
    const written = parseNdjson(readFileSync(file, 'utf8'));
    expect(written.map((doc) => doc._id)).toEqual(['drafts.post-1', 'policy', 'post-1']);
    expect(written).toEqual([...dataset.documents()].sort((a, b) => (a._id < b._id ? -1 : 1)));
  });

  it('keeps system documents out of the content file, in the system file', async () => {
    const dataset = await open();
    await put(dataset, SECRET);
    expect(lines()).toEqual([POLICY_LINE, POST_LINE]);
    expect(idsIn(systemFile)).toEqual([SECRET._id]);
  });

  it('moves a system document written into the content file by hand to the system file on the next write', async () => {
    await writeFile(file, `${POLICY_LINE}\n${JSON.stringify(SECRET)}\n${POST_LINE}\n`);
    const dataset = await open();
    expect(dataset.get(SECRET._id)).toMatchObject({ secret: 'shh' });
    await put(dataset, { _id: 'post-2', _type: 'post', title: 'Second' });
    expect(idsIn(file)).toEqual(['policy', 'post-1', 'post-2']);
    expect(idsIn(systemFile)).toEqual([SECRET._id]);
    expect((await open()).get(SECRET._id)).toMatchObject({ secret: 'shh' });
    // Moved for good: a write of system documents alone leaves the content file alone again.
    const { ino, mtimeMs } = statSync(file);
    await put(dataset, { ...SECRET, secret: 'new' });
    expect(statSync(file)).toMatchObject({ ino, mtimeMs });
  });
});

/** A child process that opens the dataset and commits `counter` documents: once (then stays), or until killed. */
function writer(mode: 'once' | 'loop'): { child: ChildProcess; commits: () => number } {
  const script = `
    import { Dataset } from ${JSON.stringify(DATASET_MODULE)};
    const dataset = await Dataset.open({ file: ${JSON.stringify(file)}, systemFile: ${JSON.stringify(systemFile)} });
    for (let n = 1; ; n += 1) {
      await dataset.commit(async (tx) => void tx.put('counter', { _id: 'counter', _type: 'counter', n }));
      process.stdout.write(n + '\\n');
      if (${JSON.stringify(mode)} === 'once') break;
    }
    setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return { child, commits: () => output.split('\n').filter(Boolean).length };
}

async function until(condition: () => boolean, everyMs = 10, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

async function kill(child: ChildProcess) {
  // 'close', not 'exit': by then everything it printed has been read.
  const closed = once(child, 'close');
  child.kill('SIGKILL');
  await closed;
}

describe('one writing process at a time', () => {
  it("refuses a write while another process holds the file's lock, naming it, and takes over once it is gone", async () => {
    const other = writer('once');
    await until(() => other.commits() === 1);
    const dataset = await open();
    await expect(put(dataset, { _id: 'post-2', _type: 'post' })).rejects.toMatchObject({
      status: 503,
      message: expect.stringContaining(`is in use by process ${other.child.pid}`),
    });
    expect(idsIn(file)).toEqual(['counter', 'policy', 'post-1']);

    await kill(other.child);
    await put(dataset, { _id: 'post-2', _type: 'post' });
    expect(idsIn(file)).toEqual(['counter', 'policy', 'post-1', 'post-2']);
  });

  it('lets another process write once the lake is closed', async () => {
    const lake = await Lake.open({ file, systemFile, access: { kind: 'local' } });
    await lake.mutate([{ create: { _id: 'post-2', _type: 'post' } }]);
    expect(readFileSync(`${file}.lock`, 'utf8').trim()).toBe(String(process.pid));
    lake.close();
    expect(existsSync(`${file}.lock`)).toBe(false);
    const other = writer('once');
    await until(() => other.commits() === 1);
    expect(idsIn(file)).toEqual(['counter', 'policy', 'post-1', 'post-2']);
  });

  it('leaves a whole file, one of the committed states, when the writer is killed mid-write', async () => {
    // Big enough that the killing signal most likely lands while a write is under way.
    const bulk = Array.from({ length: 3000 }, (_, i) =>
      JSON.stringify({ _id: `bulk-${String(i).padStart(4, '0')}`, _type: 'bulk', text: 'x'.repeat(300) }),
    );
    await writeFile(file, `${bulk.join('\n')}\n`);
    const crashing = writer('loop');
    await until(() => crashing.commits() >= 3);
    // Killed the moment a write's temporary file shows: in the middle of that write.
    await until(() => readdirSync(dir).some((name) => name.endsWith('.tmp')), 1);
    await kill(crashing.child);
    const committed = crashing.commits();

    const documents = parseNdjson(readFileSync(file, 'utf8'));
    expect(lines().slice(0, bulk.length)).toEqual(bulk);
    expect(documents).toHaveLength(bulk.length + 1);
    const { n } = documents.at(-1) as SanityDocument & { n: number };
    // A commit resolves after its rename: the file may be one ahead of what the child got to print.
    expect(n).toBeGreaterThanOrEqual(committed);
    expect(n).toBeLessThanOrEqual(committed + 1);

    // A new writer takes the stale lock over and clears the temporary files of unfinished writes.
    await writeFile(`${file}.99999.7.tmp`, '{"_id": "half');
    const next = await open();
    await put(next, { _id: 'after-crash', _type: 'post' });
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect((await open()).get('after-crash')).toBeDefined();
  });
});

/** Writes the file as a person would: in place, after the dataset last touched it. */
async function handEdit(text: string) {
  await new Promise((resolve) => setTimeout(resolve, 5));
  await writeFile(file, text);
}

describe('edits made to the file by hand', () => {
  it('takes a valid edit in on refresh, told as a transaction of the changed documents with fresh revisions', async () => {
    const dataset = await open();
    const told: Transaction[] = [];
    dataset.subscribe((transaction) => told.push(transaction));
    await handEdit(`${POLICY_LINE.replace('Privacy policy', 'Privacy')}\n${POST_LINE}\n`);
    await dataset.refresh();
    expect(told).toHaveLength(1);
    const [{ id, identity, changes }] = told as [Transaction];
    expect(identity).toBe(HAND_EDIT_IDENTITY);
    expect(changes).toEqual([
      { id: 'policy', before: expect.objectContaining({ _rev: 'rev-p' }), after: expect.objectContaining({ title: 'Privacy', _rev: id }) },
    ]);
    expect(dataset.get('policy')).toMatchObject({ title: 'Privacy', _rev: id });

    // The next edit is told alone: the earlier one's document, unchanged since, is not in it.
    await handEdit(`${POLICY_LINE.replace('Privacy policy', 'Privacy')}\n${POST_LINE.replace('First', 'Premier')}\n`);
    await dataset.refresh();
    expect(told.map((transaction) => transaction.changes.map((change) => change.id))).toEqual([['policy'], ['post-1']]);
    expect(dataset.get('policy')).toMatchObject({ _rev: id });
  });

  it('keeps the last content while the file is gone (a checkout replacing it), and writes nothing until it is back', async () => {
    const dataset = await open();
    const told: Transaction[] = [];
    dataset.subscribe((transaction) => told.push(transaction));
    await rm(file);
    await dataset.refresh();
    expect(dataset.documents().map((doc) => doc._id)).toEqual(['policy', 'post-1']);
    expect(dataset.problem()).toContain(`${file} is gone`);
    await expect(put(dataset, { _id: 'post-2', _type: 'post' })).rejects.toMatchObject({ status: 409 });
    expect(existsSync(file)).toBe(false);
    expect(told).toEqual([]);

    await handEdit(`${POLICY_LINE}\n`);
    await dataset.refresh();
    expect(dataset.problem()).toBeUndefined();
    expect(told.map((transaction) => transaction.changes.map((change) => change.id))).toEqual([['post-1']]);
  });

  it('shows a hand edit in the next answer through the handler', async () => {
    const lake = await Lake.open({ file, systemFile, access: { kind: 'local' } });
    const handle = createHandler(lake);
    const title = async () => {
      const url = `http://localhost:3000/v2025-02-19/data/query/production?query=${encodeURIComponent('*[_id == "post-1"][0].title')}`;
      return ((await (await handle(new Request(url), { internal: true })).json()) as { result: unknown }).result;
    };
    expect(await title()).toBe('First');
    await handEdit(`${POLICY_LINE}\n${POST_LINE.replace('First', 'Premier')}\n`);
    expect(await title()).toBe('Premier');
    lake.close();
  });

  it.each([
    ['cannot be parsed', `${POLICY_LINE}\n{"_id": "post-1", "_type": \n`, async () => [], ':2 is not valid JSON'],
    [
      'repeats an _id (a merge gone wrong)',
      `${POLICY_LINE}\n${POST_LINE}\n${POST_LINE.replace('First', 'Other')}\n`,
      async () => [],
      ':3 repeats the _id "post-1" of line 2',
    ],
    [
      'fails checkFile',
      `${POLICY_LINE}\n${POST_LINE.replace('"First"', '""')}\n`,
      async (documents: SanityDocument[]) => (documents.some((doc) => doc.title === '') ? ['post: title is required'] : []),
      'post: title is required',
    ],
  ])(
    'keeps the last good content of a file that %s, refuses writes with 409 until it is fixed, and never overwrites it',
    async (_, broken, checkFile, reason) => {
      const lake = await Lake.open({ file, systemFile, access: { kind: 'local' }, checkFile });
      const handle = createHandler(lake);
      const call = async (pathAndQuery: string, body?: unknown) => {
        const init = body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) };
        const response = await handle(new Request(`http://localhost:3000/v2025-02-19/data/${pathAndQuery}`, init), { internal: true });
        return { status: response.status, body: (await response.json()) as { result?: unknown; error?: { description: string } } };
      };
      const title = async () => (await call(`query/production?query=${encodeURIComponent('*[_id == "post-1"][0].title')}`)).body.result;
      const mutate = () => call('mutate/production', { mutations: [{ patch: { id: 'policy', set: { title: 'Edited' } } }] });

      await handEdit(broken);
      expect(await title()).toBe('First');
      const problem = lake.dataset.problem();
      expect(problem).toContain(file);
      expect(problem).toContain(reason);
      expect(await mutate()).toEqual({ status: 409, body: { error: { type: 'datasetError', description: problem } } });
      expect(readFileSync(file, 'utf8')).toBe(broken);

      await handEdit(`${POLICY_LINE}\n${POST_LINE.replace('First', 'Fixed')}\n`);
      expect(await title()).toBe('Fixed');
      expect(lake.dataset.problem()).toBeUndefined();
      expect((await mutate()).status).toBe(200);
      expect(lake.dataset.get('policy')).toMatchObject({ title: 'Edited' });
      lake.close();
    },
  );
});
