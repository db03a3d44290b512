/**
 * One transaction as the history keeps it (what Sanity's transactions API lists, and the events it makes),
 * and the content a run of them leaves, replayed from a base by their `apply` effects.
 */
import { applyPatch } from 'mendoza';

import { isContentId, type SanityDocument } from './documents.ts';
import { eventsOf } from './history-events.ts';
import type { LogBase, LogEntry } from './history-log.ts';
import { mutationOf } from './mutation-of.ts';
import { contentById, effectsOfChange, withoutRev, type Change } from './transaction.ts';

/** A transaction of the timeline; those before the log carry the documents they left. */
export type Entry = LogEntry & { states?: Record<string, SanityDocument | null> };

export type EntrySource = { id: string; timestamp: string; author: string; changes: readonly Change[] };

/** The entry of a transaction; `exists` tells what the dataset holds after it, for the variants it did not change. */
export function entryOf(transaction: EntrySource, exists: (id: string) => boolean): LogEntry {
  const changes = transaction.changes.filter((change) => isContentId(change.id));
  return {
    id: transaction.id,
    timestamp: transaction.timestamp,
    author: transaction.author,
    documentIDs: changes.map((change) => change.id),
    mutations: changes.map(({ id, before, after }) => mutationOf(id, before, after)),
    effects: Object.fromEntries(changes.map((change) => [change.id, effectsOfChange(change)])),
    events: eventsOf({ ...transaction, changes }, exists),
  };
}

/** `state` changed by one `apply` effect. */
export const applied = (state: SanityDocument | null, apply: unknown[]) => applyPatch(withoutRev(state), apply) as SanityDocument | null;

/** The content after `entries`, replayed from `base`; stops before an entry that does not apply, and says how many did. */
export function replay(base: LogBase, entries: readonly LogEntry[]): { states: Map<string, SanityDocument>; count: number } {
  let states = contentById(base.documents);
  let count = 0;
  for (const entry of entries) {
    const next = new Map(states);
    try {
      for (const [id, { apply }] of Object.entries(entry.effects)) {
        const doc = applied(states.get(id) ?? null, apply);
        if (doc) next.set(id, { ...doc, _rev: entry.id });
        else next.delete(id);
      }
    } catch {
      break;
    }
    states = next;
    count += 1;
  }
  return { states, count };
}
