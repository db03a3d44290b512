/**
 * Tag revalidations, shared. Next keeps them in one map per process (its "tags manifest"), which both
 * of its caches check: the 'use cache' entries and the prerendered pages. Here a revalidation is
 * written to that map first (so the instance that received a publish applies it whatever Redis does)
 * and then to a Redis hash; every other instance copies the hash into its own map before it serves
 * from a cache (refresh). A revalidation Redis did not take is sent again once Redis answers.
 */
import { nextTags, type TagState } from './next-internals.ts';
import { KEY_PREFIX, type RedisLink } from './redis-link.ts';

export { nextTags };

const TAGS_KEY = `${KEY_PREFIX}tags`;

/** The later of two states, field by field: a revalidation is never undone by an older one. */
function later(a: TagState | undefined, b: TagState): TagState {
  const pick = (x?: number, y?: number) => (x === undefined ? y : y === undefined ? x : Math.max(x, y));
  return { stale: pick(a?.stale, b.stale), expired: pick(a?.expired, b.expired) };
}

export class SharedTags {
  /** Revalidations Redis has not taken yet, by tag. */
  private readonly unsent = new Map<string, TagState>();
  private refreshing: Promise<void> | null = null;
  private readonly link: RedisLink;
  private readonly warn: (line: string) => void;

  constructor(link: RedisLink, warn: (line: string) => void = console.error) {
    this.link = link;
    this.warn = warn;
    // What Redis missed while it was away reaches the others as soon as it is back, not at the next read.
    link.client.on('ready', () => void (this.unsent.size > 0 && this.send()));
  }

  /**
   * What revalidateTag and updateTag do, as Next's own handlers do it: without `durations` the tags
   * expire now; with them they are stale now and expire `expire` seconds later. Applied here, then sent.
   */
  async update(tags: string[], durations?: { expire?: number }): Promise<void> {
    for (const [tag, state] of this.apply(tags, durations)) this.unsent.set(tag, state);
    if (!(await this.send())) {
      this.warn(`Revalidated ${tags.join(', ')} on this instance only: Redis did not take it; it is sent again once Redis answers.`);
    }
  }

  /** Applies a revalidation to this instance only, and returns the tags' new states. */
  apply(tags: string[], durations?: { expire?: number }): Map<string, TagState> {
    const now = Date.now();
    const states = new Map<string, TagState>();
    for (const tag of tags) {
      const state: TagState = { ...nextTags.tagsManifest.get(tag) };
      if (durations) {
        state.stale = now;
        if (durations.expire !== undefined) state.expired = now + durations.expire * 1000;
      } else {
        state.expired = now;
      }
      nextTags.tagsManifest.set(tag, state);
      states.set(tag, state);
    }
    return states;
  }

  /** Takes in what other instances revalidated; concurrent callers share one Redis round trip. */
  refresh(): Promise<void> {
    this.refreshing ??= this.pull().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async pull(): Promise<void> {
    if (this.unsent.size > 0) await this.send();
    const stored = await this.link.run((client) => client.hgetall(TAGS_KEY), {});
    for (const [tag, json] of Object.entries(stored)) {
      nextTags.tagsManifest.set(tag, later(nextTags.tagsManifest.get(tag), JSON.parse(json) as TagState));
    }
  }

  /** Writes the unsent revalidations; true once Redis has them all. */
  private async send(): Promise<boolean> {
    const batch = new Map(this.unsent);
    const fields = Object.fromEntries([...batch].map(([tag, state]) => [tag, JSON.stringify(state)]));
    const sent = await this.link.run(async (client) => (await client.hset(TAGS_KEY, fields)) >= 0, false);
    // A newer revalidation of a tag may have arrived meanwhile: only what was sent leaves the queue.
    if (sent) for (const [tag, state] of batch) if (this.unsent.get(tag) === state) this.unsent.delete(tag);
    return sent;
  }
}
