/**
 * The dataset file's history in git: the file as each commit left it, with the commit's author and time.
 * The seed is committed, so a fresh clone's Studio can show who changed the policy and when. Read along the
 * first-parent line (a branch's commits arrive with the merge that brought them, so each state follows the
 * one before it), following renames, newest first up to a cap. Without git, outside a repository, for an
 * untracked file or in a shallow clone, there is less or nothing: history starts where the repository does.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';

import { lakeTime } from './clock.ts';
import { parseNdjson, type SanityDocument } from './documents.ts';

export type Snapshot = { commit: string; time: string; author: { id: string; name: string; email: string }; documents: SanityDocument[] };

/** How many commits are read, and how many bytes of the file's versions: what bounds the read and the memory it holds. */
export const MAX_COMMITS = 50;
const MAX_BYTES = 32 * 1024 * 1024;
const GIT_TIMEOUT_MS = 10_000;
const FIELD = '\u001f';
const RECORD = '\u001e';
const NO_BLOB = /^0+$/;

/** A git author's id in the Studio's user lookups: stable per e-mail address, and not the address itself. */
export const gitAuthorId = (email: string) => `git-${createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 12)}`;

function git(dir: string, args: string[], input?: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      ['-C', dir, '--no-optional-locks', ...args],
      {
        encoding: 'buffer',
        timeout: GIT_TIMEOUT_MS,
        maxBuffer: MAX_BYTES * 2,
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat' },
      },
      (error, stdout) => (error ? reject(new Error(error.message, { cause: error })) : resolve(stdout)),
    );
    child.stdin?.end(input);
  });
}

type Commit = { commit: string; time: string; name: string; email: string; blob: string | null };

function parseLog(text: string): Commit[] {
  return text
    .split(RECORD)
    .filter((record) => record.trim() !== '')
    .map((record) => {
      const [header = '', ...rest] = record.split('\n');
      const [commit = '', time = '', name = '', email = ''] = header.split(FIELD);
      // ":<mode> <mode> <old blob> <new blob> <status>\t<path>": the file as the commit left it.
      const raw = rest.find((line) => line.startsWith(':'))?.split(/\s+/);
      const blob = raw?.[3] && !NO_BLOB.test(raw[3]) ? raw[3] : null;
      return { commit, time, name, email, blob };
    });
}

/** `git cat-file --batch` output: "<sha> blob <size>\n<content>\n" per object asked for. */
function parseBatch(output: Buffer): Map<string, string> {
  const blobs = new Map<string, string>();
  let at = 0;
  while (at < output.length) {
    const end = output.indexOf(10, at);
    const [sha = '', kind, size] = output.subarray(at, end).toString().split(' ');
    if (kind !== 'blob') {
      at = end + 1;
      continue;
    }
    blobs.set(sha, output.subarray(end + 1, end + 1 + Number(size)).toString('utf8'));
    at = end + 1 + Number(size) + 1;
  }
  return blobs;
}

/** The file's versions committed at or before `until` (ISO time), oldest first; none when git cannot tell. */
export async function gitSnapshots(file: string, until: string): Promise<Snapshot[]> {
  const dir = path.dirname(file);
  try {
    const log = await git(dir, [
      'log',
      '--follow',
      '--first-parent',
      `--before=${until}`,
      `-n${MAX_COMMITS}`,
      '--raw',
      '--no-abbrev',
      `--format=${RECORD}%H${FIELD}%cI${FIELD}%an${FIELD}%ae`,
      '--',
      path.basename(file),
    ]);
    const commits = parseLog(log.toString('utf8'));
    const wanted = [...new Set(commits.flatMap((commit) => (commit.blob ? [commit.blob] : [])))];
    const blobs =
      wanted.length > 0 ? parseBatch(await git(dir, ['cat-file', '--batch'], `${wanted.join('\n')}\n`)) : new Map<string, string>();
    const snapshots: Snapshot[] = [];
    let bytes = 0;
    for (const { commit, time, name, email, blob } of commits) {
      const text = blob ? blobs.get(blob) : '';
      if (text === undefined) break;
      bytes += text.length;
      if (bytes > MAX_BYTES) break;
      let documents: SanityDocument[];
      try {
        documents = parseNdjson(text, `${commit}:${path.basename(file)}`);
      } catch {
        // A commit whose file did not parse is not a state the dataset was ever served in.
        continue;
      }
      snapshots.push({ commit, time: lakeTime(new Date(time)), author: { id: gitAuthorId(email), name, email }, documents });
    }
    return snapshots.reverse();
  } catch {
    // No git, not a repository, an untracked file, a repository owned by another user: no history from git.
    return [];
  }
}
