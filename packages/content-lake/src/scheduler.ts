/**
 * Publishes scheduled releases at their `publishAt`, in the lake's own process: Sanity runs the schedule on
 * its backend, and the Studio has no scheduler of its own (../shared/STUDIO-HISTORY.md §2). One timer, for
 * the next release due, set again after every transaction (a schedule made, moved or dropped, a hand edit
 * of the file); no polling. At start, whatever fell due while no lake ran is published first.
 *
 * Exactly once: `publish` re-reads the release inside the transaction that publishes it and does nothing
 * unless it is still scheduled and due, and the documents and the release's new state are one write of
 * the dataset file. A kill leaves the release scheduled with nothing published, or published with all.
 */
import { AsyncResource } from 'node:async_hooks';

import type { Dataset } from './dataset.ts';
import { ReleasePublishError, isRelease } from './releases.ts';

/** The longest delay setTimeout keeps: longer ones fire at once. A later release waits out several. */
export const MAX_TIMER_MS = 2 ** 31 - 1;
/** How long a release whose publish failed for a reason other than its content waits before the next attempt (a full disk, a locked file). */
export const RETRY_MS = 60_000;

/** When each scheduled release of `documents` is due, by release name. */
function dueTimes(documents: readonly { _id: string; _type: string }[]): Map<string, number> {
  const due = new Map<string, number>();
  for (const doc of documents)
    if (isRelease(doc) && doc.state === 'scheduled' && doc.publishAt !== undefined) due.set(doc.name, Date.parse(doc.publishAt));
  return due;
}

export class Scheduler {
  private readonly dataset: Dataset;
  private readonly publish: (release: string) => Promise<void>;
  private readonly retries = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;
  /**
   * The timer's callback, bound to the context the scheduler was made in (the server's start): armed from a
   * request's commit, it would otherwise run inside that finished request's context (Next's, among others).
   */
  private readonly fire = AsyncResource.bind(() => void this.run());

  /** `publish` publishes a release if it is still scheduled and due, in one transaction; a ReleasePublishError is its content's fault. */
  constructor(dataset: Dataset, publish: (release: string) => Promise<void>) {
    this.dataset = dataset;
    this.publish = publish;
  }

  /** Publishes what is due already, then follows the dataset. */
  async start(): Promise<void> {
    this.unsubscribe = this.dataset.subscribe(() => this.arm());
    await this.run();
  }

  /** Sets the timer for the next release due (none: no timer). */
  arm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.stopped) return;
    const times = [...this.due().values()];
    if (times.length === 0) return;
    const delay = Math.min(Math.max(Math.min(...times) - Date.now(), 0), MAX_TIMER_MS);
    // Not keeping a process alive for a release: the server's own work does that.
    this.timer = setTimeout(this.fire, delay).unref();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.unsubscribe?.();
  }

  /** The releases scheduled, and when each is due (a failed attempt's retry time if later). */
  private due(): Map<string, number> {
    const due = dueTimes(this.dataset.documents());
    for (const [name, at] of due) due.set(name, Math.max(at, this.retries.get(name) ?? 0));
    for (const name of this.retries.keys()) if (!due.has(name)) this.retries.delete(name);
    return due;
  }

  /** One run at a time: publishes every release due, oldest first, then sets the timer again. */
  private run(): Promise<void> {
    this.running = this.running.then(async () => {
      const now = Date.now();
      const due = [...this.due()].filter(([, at]) => at <= now).sort(([, a], [, b]) => a - b);
      for (const [name] of due) {
        if (this.stopped) return;
        try {
          await this.publish(name);
          this.retries.delete(name);
        } catch (error) {
          // Refused for its content, the release is active again, showing why; anything else is tried again later.
          if (error instanceof ReleasePublishError) continue;
          console.error(
            `content lake: the scheduled release "${name}" could not be published; trying again in ${RETRY_MS / 1000} s`,
            error,
          );
          this.retries.set(name, Date.now() + RETRY_MS);
        }
      }
      this.arm();
    });
    return this.running;
  }
}
