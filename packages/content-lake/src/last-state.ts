/**
 * A document as it last existed, from the history (history.ts): what a release's publish restores of a
 * version deleted since (the lake's actions), and what `lastRevision` answers ask for (history-api.ts).
 */
import type { SanityDocument } from './documents.ts';
import type { History, Timeline } from './history.ts';

/** The last position at which document `id` existed: now, or just before it was deleted; -1 if it never did. */
export function lastAlive({ entries }: Timeline, id: string): number {
  for (let position = entries.length - 1; position >= 0; position -= 1) {
    const effects = entries[position]!.effects[id];
    if (effects) return effects.apply[0] === 0 && effects.apply[1] === null ? position - 1 : entries.length - 1;
  }
  return -1;
}

/** Document `id` as it last existed (now, or just before it was deleted), or null when the history never held it. */
export async function lastState(history: History, id: string): Promise<SanityDocument | null> {
  const timeline = await history.timeline();
  const position = lastAlive(timeline, id);
  return position < 0 ? null : history.stateAt(timeline, id, position);
}
