import { execFile, execFileSync } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { isContentId, parseNdjson, type SanityDocument } from '@school-site/content-lake';
import { HISTORY_LAG_MS } from '@school-site/content-lake';
import { startContentLake, type ContentLake } from '../../testkit/content-lake/server.ts';
import { APP_ROOT, SEED_FILE } from '../../testkit/paths.ts';

/**
 * npm run content -- import / export (scripts/content.ts) as an operator runs them, against the local
 * Content Lake playing a hosted project: the CLI is a child process configured only by the environment,
 * so the same code and settings reach sanity.io. The committed seed is read, never written.
 */

const TOKEN = 'content-io-editor-token';
const SANITY_VARIABLES = ['NEXT_PUBLIC_SANITY_PROJECT_ID', 'NEXT_PUBLIC_SANITY_DATASET', 'SANITY_API_HOST', 'SANITY_API_WRITE_TOKEN'];

let lake: ContentLake;
let dir: string;
let seedBytes: string;

beforeAll(async () => {
  lake = await startContentLake({ documents: [], token: TOKEN, projectId: 'lake', dataset: 'production' });
  dir = await mkdtemp(path.join(tmpdir(), 'content-io-'));
  seedBytes = await readFile(SEED_FILE, 'utf8');
});

afterAll(async () => {
  await lake?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

type Run = { code: number; stdout: string; stderr: string };

/** `node scripts/content.ts ...args` with the project's variables of `env` only (none inherited). Async: the lake answers from this process. */
function content(args: string[], env: Record<string, string>): Promise<Run> {
  const inherited = { ...process.env };
  for (const name of SANITY_VARIABLES) delete inherited[name];
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(APP_ROOT, 'scripts', 'content.ts'), ...args],
      { cwd: APP_ROOT, env: { ...inherited, ...env }, encoding: 'utf8', timeout: 30_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const projectEnv = (token = TOKEN) => ({
  NEXT_PUBLIC_SANITY_PROJECT_ID: 'lake',
  NEXT_PUBLIC_SANITY_DATASET: 'production',
  SANITY_API_HOST: lake.origin,
  SANITY_API_WRITE_TOKEN: token,
});

/** What the API sets on every write (the revision and its time) left out, sorted by _id. */
const withoutWriteStamps = (documents: SanityDocument[]) =>
  documents.map(({ _rev: _, _updatedAt: __, ...doc }) => doc).sort((a, b) => (a._id < b._id ? -1 : 1));

const lakeContent = () => lake.documents().filter((doc) => isContentId(doc._id));

describe('npm run content -- import', () => {
  it('puts exactly the seed into the project', async () => {
    const run = await content(['import'], projectEnv());
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const seed = parseNdjson(seedBytes);
    expect(run.stdout).toContain(
      `Imported ${seed.length} documents from seed/production.ndjson into project "lake", dataset "production".`,
    );
    expect(run.stdout).toContain('Skipped 0 system documents.');
    expect(withoutWriteStamps(lake.documents())).toEqual(withoutWriteStamps(seed));
  });

  it('replaces documents with the same ids, carries drafts, and skips system documents, saying how many', async () => {
    const seed = parseNdjson(seedBytes);
    const edited = seed.map((doc) => (doc._id === 'siteSettings' ? { ...doc, productName: 'Imported again' } : doc));
    const draft = { ...seed[0]!, _id: `drafts.${seed[0]!._id}` };
    const secret = { _id: 'sanity-preview-url-secret.abc', _type: 'sanity.previewUrlSecret', secret: 's' };
    const file = path.join(dir, 'with-system.ndjson');
    await writeFile(file, [...edited, draft, secret].map((doc) => `${JSON.stringify(doc)}\n`).join(''));

    const run = await content(['import', '--file', file], projectEnv());
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Imported ${seed.length + 1} documents`);
    expect(run.stdout).toContain('Skipped 1 system documents (sanity-preview-url-secret.abc).');
    expect(lake.documents().map((doc) => doc._id)).not.toContain(secret._id);
    expect(withoutWriteStamps(lake.documents())).toEqual(withoutWriteStamps([...edited, draft]));
    // Back to the seed for the export below; the draft stays (an import never deletes).
    await lake.mutate([{ delete: { id: draft._id } }]);
    expect((await content(['import'], projectEnv())).code).toBe(0);
  });
});

describe('npm run content -- export', () => {
  it("writes the project's content documents, sorted by _id, one per line, the same bytes each time", async () => {
    await lake.mutate([
      { patch: { id: 'siteSettings', set: { productName: 'Edited in the project' } } },
      { createOrReplace: { ...lake.documents().find((doc) => doc._id === 'landingPage')!, _id: 'drafts.landingPage' } },
      { createOrReplace: { _id: 'sanity-preview-url-secret.xyz', _type: 'sanity.previewUrlSecret', secret: 's' } },
    ]);
    const file = path.join(dir, 'production.ndjson');
    await copyFile(SEED_FILE, file);

    const run = await content(['export', '--file', file], projectEnv());
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const expected = [...lakeContent()].sort((a, b) => (a._id < b._id ? -1 : 1));
    expect(run.stdout).toContain(`Wrote ${expected.length} documents from project "lake", dataset "production"`);
    const written = await readFile(file, 'utf8');
    expect(written).toBe(expected.map((doc) => `${JSON.stringify(doc)}\n`).join(''));
    expect(written).toContain('"productName":"Edited in the project"');
    expect(written).toContain('"_id":"drafts.landingPage"');
    expect(written).not.toContain('sanity-preview-url-secret');

    expect((await content(['export', '--file', file], projectEnv())).code).toBe(0);
    expect(await readFile(file, 'utf8')).toBe(written);
    expect(await readFile(SEED_FILE, 'utf8')).toBe(seedBytes);
  });
});

describe('npm run content -- versions', () => {
  const policyOf = (documents: SanityDocument[]) => documents.find((doc) => doc._id === 'privacyPolicy')!;
  const version = (documents: SanityDocument[], date: string) => documents.find((doc) => doc._id === `privacyPolicyVersion-${date}`);

  it("fills the project's record once from its history: each date's first publish, later texts of that date as corrections", async () => {
    await lake.mutate([{ patch: { id: 'privacyPolicy', set: { lastUpdated: '2026-12-01', title: 'Policy A' } } }]);
    await lake.mutate([{ patch: { id: 'privacyPolicy', set: { title: 'Policy B' } } }]);
    await lake.mutate([{ patch: { id: 'privacyPolicy', set: { lastUpdated: '2026-12-15', title: 'Policy C' } } }]);
    // Sanity's history leaves out the last second's transactions, and the stand-in does too (HISTORY_LAG_MS).
    await new Promise((resolve) => setTimeout(resolve, HISTORY_LAG_MS + 100));

    const run = await content(['versions'], projectEnv());
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('Added 2 versions of the privacy policy to project "lake", dataset "production": 2026-12-01, 2026-12-15.');
    expect(version(lake.documents(), '2026-12-01')).toMatchObject({ title: 'Policy B', replaced: [{ title: 'Policy A' }] });
    expect(version(lake.documents(), '2026-12-15')).toMatchObject({ title: 'Policy C' });
    expect(version(lake.documents(), '2026-11-22')).toMatchObject({ title: policyOf(parseNdjson(seedBytes)).title });
    expect((await content(['versions'], projectEnv())).stdout).toContain('already holds every version its history shows');
  });

  it("fills the embedded default's record once from the content file's commits, into the file", async () => {
    const repo = await mkdtemp(path.join(dir, 'repo-'));
    const file = path.join(repo, 'production.ndjson');
    const git = (args: string[], date?: string) =>
      execFileSync('git', args, {
        cwd: repo,
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 'Legal',
          GIT_AUTHOR_EMAIL: 'legal@example.edu',
          GIT_COMMITTER_NAME: 'Legal',
          GIT_COMMITTER_EMAIL: 'legal@example.edu',
          ...(date ? { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } : {}),
        },
      });
    const seed = parseNdjson(seedBytes).filter((doc) => doc._type !== 'privacyPolicyVersion');
    const commit = async (set: Record<string, unknown>, date: string) => {
      await writeFile(file, seed.map((doc) => JSON.stringify(doc._id === 'privacyPolicy' ? { ...doc, ...set } : doc) + '\n').join(''));
      git(['add', '.']);
      git(['commit', '-qm', `policy ${date}`], date);
    };
    git(['init', '-q']);
    await commit({ lastUpdated: '2026-12-01', title: 'Policy A' }, '2026-11-20T10:00:00Z');
    await commit({ lastUpdated: '2026-12-15', title: 'Policy C' }, '2026-11-25T10:00:00Z');

    const versions = ['versions', '--file', file, '--data-dir', path.join(repo, 'data')];
    const run = await content(versions, {});
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain(`Added 2 versions of the privacy policy to ${path.relative(APP_ROOT, file)}: 2026-12-01, 2026-12-15.`);
    const written = parseNdjson(await readFile(file, 'utf8'));
    expect(version(written, '2026-12-01')).toMatchObject({ title: 'Policy A', publishedAt: expect.stringMatching(/^2026-11-20T10:00:00/) });
    expect(version(written, '2026-12-15')).toMatchObject({ title: 'Policy C' });
    expect((await content(versions, {})).stdout).toContain('already holds every version its history shows');
  });
});

describe('refusals: exit code 1 and a message naming what to set', () => {
  const file = () => path.join(dir, 'refused.ndjson');
  const halfProject = () => ({ NEXT_PUBLIC_SANITY_PROJECT_ID: 'lake', SANITY_API_HOST: lake.origin, SANITY_API_WRITE_TOKEN: TOKEN });

  // Both commands check the project and the token through the same two functions (projectClient, checkAccess)
  // before anything else: each refusal is run through one of them, in turn.
  it.each([
    ['no project', 'import', () => ({}), 'NEXT_PUBLIC_SANITY_PROJECT_ID and NEXT_PUBLIC_SANITY_DATASET are not set'],
    ['half a project', 'export', halfProject, 'NEXT_PUBLIC_SANITY_DATASET is not set, but NEXT_PUBLIC_SANITY_PROJECT_ID is.'],
    ['no token', 'import', () => ({ ...projectEnv(), SANITY_API_WRITE_TOKEN: '' }), 'SANITY_API_WRITE_TOKEN is not set'],
    [
      'a wrong token',
      'export',
      () => projectEnv('not-the-token'),
      'Sanity refused SANITY_API_WRITE_TOKEN for project "lake", dataset "production" (HTTP 401',
    ],
  ])('%s (%s)', async (_name, command, envOf, message) => {
    const env: Record<string, string> = envOf();
    const before = structuredClone(lake.documents());
    const run = await content([command, '--file', command === 'import' ? SEED_FILE : file()], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(message);
    expect(run.stdout).toBe('');
    expect(lake.documents()).toEqual(before);
    await expect(readFile(file(), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('an unknown command', async () => {
    const run = await content(['sync'], projectEnv());
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Usage: node scripts/content.ts import|export');
  });
});
