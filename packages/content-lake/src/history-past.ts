/**
 * The transactions before the history's log: one per commit of the dataset file (git-history.ts) up to the
 * log's base, then what the base holds that the last commit did not, one transaction per document and its
 * draft (uncommitted edits when the log began; the whole file when there is no git; the edits the bound
 * folded away). Each carries the documents it left, which anchor the documents rebuilt at a revision.
 */
import { createHash } from 'node:crypto';

import { lakeTime } from './clock.ts';
import { isPublishedId, publishedIdOf, type SanityDocument } from './documents.ts';
import { gitSnapshots, type Snapshot } from './git-history.ts';
import { entryOf, type Entry } from './history-entry.ts';
import type { LogBase } from './history-log.ts';
import { changesBetween, contentById, type Change } from './transaction.ts';

/** Authors that are not people: the file as the lake found it, and the edits the bound merged into one. */
export const FILE_AUTHOR = 'file';
export const RETENTION_AUTHOR = 'earlier-edits';

export type Author = { id: string; name: string; email?: string };
export const PSEUDO_AUTHORS: Author[] = [
  { id: FILE_AUTHOR, name: 'The dataset file' },
  { id: RETENTION_AUTHOR, name: 'Earlier edits, merged by the history limit' },
];

type Transition = { id: string; timestamp: string; author: string; changes: Change[]; after: Map<string, SanityDocument> };

export type Past = {
  entries: Entry[];
  /** The commits' authors, by id. */
  authors: Snapshot['author'][];
  /** Document revisions that are not the id of the transaction that wrote them (a file's, or one taken twice). */
  aliases: Map<string, string>;
};

/** The past before `base`, whose ids do not clash with `taken` (the log's). */
export async function readPast(base: LogBase, contentFile: string | undefined, taken: ReadonlySet<string>): Promise<Past> {
  const snapshots = contentFile ? await gitSnapshots(contentFile, base.time) : [];
  const transitions: Transition[] = [];
  let states = new Map<string, SanityDocument>();
  for (const { commit, time, author, documents } of snapshots) {
    const next = contentById(documents);
    const changes = changesBetween(states, next);
    if (changes.length > 0)
      transitions.push({ id: `git-${commit.slice(0, 12)}`, timestamp: time, author: author.id, changes, after: next });
    states = next;
  }
  transitions.push(...baseTransitions(base, states, snapshots.at(-1)?.time ?? ''));
  // An id taken twice (a `_rev` kept through a hand edit) stays with its newest transaction; older ones get a suffix.
  const used = new Set(taken);
  const aliases = new Map<string, string>();
  for (const transition of transitions.toReversed()) {
    const wanted = transition.id;
    for (let n = 2; used.has(transition.id); n += 1) transition.id = `${wanted}-${n}`;
    used.add(transition.id);
    for (const { after } of transition.changes)
      if (after?._rev && after._rev !== transition.id && !aliases.has(after._rev)) aliases.set(after._rev, transition.id);
  }
  const entries = transitions.map(({ after, ...transition }) => ({
    ...entryOf(transition, (id) => after.has(id)),
    states: Object.fromEntries(transition.changes.map((change) => [change.id, change.after])),
  }));
  return { entries, authors: snapshots.map((snapshot) => snapshot.author), aliases };
}

/**
 * What `base` holds beyond the last commit (`states`, made at `after`): one transaction per document and
 * its draft, named and dated by the documents themselves where they can tell.
 */
function baseTransitions(base: LogBase, states: Map<string, SanityDocument>, after: string): Transition[] {
  const documents = contentById(base.documents);
  const { author } = base;
  const groups = Map.groupBy(changesBetween(states, documents), (change) => publishedIdOf(change.id));
  return [...groups.values()].map((changes) => {
    const written = changes.flatMap((change) => (change.after ? [change.after] : []));
    const latest = written
      .flatMap((doc) => (typeof doc._updatedAt === 'string' ? [lakeTime(doc._updatedAt)] : []))
      .sort()
      .at(-1);
    const timestamp = latest && latest > after && latest <= base.time ? latest : base.time;
    // Named after the published document's revision where it has one, so that only its draft's is an alias.
    const named = [...written]
      .sort((a, b) => Number(isPublishedId(b._id)) - Number(isPublishedId(a._id)))
      .find((doc) => typeof doc._rev === 'string')?._rev;
    const id = named ?? `base-${createHash('sha1').update(`${base.time}:${changes[0]!.id}`).digest('hex').slice(0, 12)}`;
    return { id, timestamp, author, changes, after: documents };
  });
}
