/**
 * The local Content Lake: one dataset answered in the shapes of Sanity's HTTP API (handler.ts), for the
 * embedded Studio and site (lib/content/local-lake.ts) and, playing Sanity's hosted API, for the hosted
 * build's tests and `npm run dev:lake` (node-server.ts). Every committed transaction reaches the owner's
 * onCommit (within the commit), then the listener streams (the Studio) and the live events (the site's previews).
 */
import type { Access } from './access.ts';
import { applyAction, type Validate } from './actions.ts';
import { Dataset, type DatasetOptions } from './dataset.ts';
import { isPublishedId, isReleaseId, releaseDocumentId, type SanityDocument } from './documents.ts';
import { lakeError, newId } from './errors.ts';
import { watchSaves } from './file-watch.ts';
import { lastState } from './last-state.ts';
import { Listeners } from './listener.ts';
import { LiveEvents } from './live-events.ts';
import { applyMutation, type MutationResult } from './mutations.ts';
import type { User } from './project-api.ts';
import { Queries } from './queries.ts';
import { checkVersions, isRelease, markFailed, publishRelease, ReleasePublishError } from './releases.ts';
import { Scheduler } from './scheduler.ts';
import type { Transaction } from './transaction.ts';

export type LakeOptions = DatasetOptions & {
  access: Access;
  projectId?: string;
  dataset?: string;
  /** What a publish must pass (the schema's rules). */
  validate?: Validate;
  /** Who is signed in: a `local` lake's editor, a `token` lake's token holder. */
  user?: User;
  maxStreams?: number;
  heartbeatMs?: number;
  /** Takes in a hand edit of `file` once it is saved, not only before the next read or write: it is committed with no request. */
  watch?: boolean;
  /**
   * Inside each committed transaction, before the commit resolves: whatever made it (a request, the
   * scheduler, a hand edit of the file), its owner hears of it before anyone is answered.
   */
  onCommit?: (transaction: Transaction) => void;
};

export class Lake {
  readonly options: LakeOptions;
  readonly dataset: Dataset;
  readonly queries: Queries;
  readonly listeners: Listeners;
  readonly live: LiveEvents;
  readonly projectId: string;
  readonly datasetName: string;
  readonly scheduler: Scheduler;
  private readonly heartbeat: NodeJS.Timeout;
  private notifying: Promise<void> = Promise.resolve();
  private unwatch: (() => void) | undefined;

  constructor(options: LakeOptions, dataset: Dataset) {
    this.options = options;
    this.dataset = dataset;
    this.projectId = options.projectId ?? 'local';
    this.datasetName = options.dataset ?? 'production';
    this.queries = new Queries({ projectId: this.projectId, dataset: this.datasetName });
    this.listeners = new Listeners(this.queries, options.maxStreams ?? 200);
    this.live = new LiveEvents(options.maxStreams ?? 200);
    // One transaction at a time, in commit order: matching a transaction's changes to the streams' queries
    // is asynchronous, and the next commit may come meanwhile. The Studio follows revision chains in order.
    dataset.subscribe((transaction) => {
      this.notifying = this.notifying
        .then(() => this.notifyStreams(transaction))
        .catch((error: unknown) => console.error('content lake:', error));
      // Within the commit: the dataset logs a throw here as a failed listener.
      options.onCommit?.(transaction);
    });
    // Browsers' EventSource polyfill reconnects after 45 s of silence; proxies close idle streams.
    this.heartbeat = setInterval(() => {
      this.listeners.beat();
      this.live.beat();
    }, options.heartbeatMs ?? 15_000).unref();
    this.scheduler = new Scheduler(dataset, (release) => this.publishScheduled(release));
  }

  /** The lake of `options`, with the releases that fell due while no lake ran already published. */
  static async open(options: LakeOptions): Promise<Lake> {
    const lake = new Lake(options, await Dataset.open(options));
    await lake.scheduler.start();
    lake.dataset.history.forgetOpeningCommits();
    if (options.watch && options.file) lake.unwatch = watchSaves(options.file, () => lake.dataset.refresh());
    return lake;
  }

  mutate(mutations: unknown, transactionId = newId(), dryRun = false): Promise<{ transactionId: string; results: MutationResult[] }> {
    if (!Array.isArray(mutations) || mutations.length === 0)
      throw lakeError(400, 'mutationError', 'The request body must be {"mutations": [...]} with at least one mutation');
    const select = (query: string, params: Record<string, unknown>) => this.queries.selectIds(this.dataset.documents(), query, params);
    return this.dataset
      .commit(
        async (tx) => {
          const results: MutationResult[] = [];
          for (const [index, mutation] of mutations.entries()) results.push(...(await applyMutation(tx, mutation, index, select)));
          // The bounds and states of releases hold for raw mutations too: only their actions change them.
          const release = tx.changes().find((change) => isReleaseId(change.id));
          if (release) throw lakeError(409, 'mutationError', `"${release.id}" is a release: it changes through the release actions only`);
          checkVersions(tx);
          return results;
        },
        transactionId,
        this.options.user?.id,
        dryRun,
      )
      .then(({ result }) => ({ transactionId, results: result }));
  }

  /**
   * One transaction of `actions`, or none. A dry run answers exactly as the real one would and writes
   * nothing: the Studio sends dry-run publishes, archives and deletes of a release just to draw its menus.
   */
  async act(actions: unknown, transactionId = newId(), dryRun = false): Promise<{ transactionId: string }> {
    if (!Array.isArray(actions) || actions.length === 0)
      throw lakeError(400, 'actionError', 'The request body must be {"actions": [...]} with at least one action');
    const context = {
      validate: this.options.validate,
      lastState: (id: string) => lastState(this.dataset.history, id),
      userId: this.options.user?.id,
    };
    try {
      await this.dataset.commit(
        async (tx) => {
          for (const [index, action] of actions.entries()) await applyAction(tx, action, index, context);
          checkVersions(tx);
        },
        transactionId,
        this.options.user?.id,
        dryRun,
      );
    } catch (error) {
      if (error instanceof ReleasePublishError && !dryRun) await this.recordFailure(error);
      throw error;
    }
    return { transactionId };
  }

  /** Publishes release `name` if it is still scheduled and due: the scheduler's one way to write. */
  async publishScheduled(name: string): Promise<void> {
    try {
      await this.dataset.commit(
        async (tx) => {
          const release = tx.get(releaseDocumentId(name));
          if (!isRelease(release) || release.state !== 'scheduled' || !(Date.parse(release.publishAt ?? '') <= Date.now())) return;
          await publishRelease(tx, release, this.options.validate, (type, description, status = 409) => {
            throw lakeError(status, type, description);
          });
        },
        newId(),
        this.options.user?.id,
      );
    } catch (error) {
      if (error instanceof ReleasePublishError) await this.recordFailure(error);
      throw error;
    }
  }

  /** A release's publish that failed: the release shows why, in a transaction of its own. */
  async recordFailure(error: ReleasePublishError): Promise<void> {
    await this.dataset.commit(async (tx) => markFailed(tx, error.release, error.reason), newId(), this.options.user?.id);
  }

  /** Replaces the whole dataset, as an import with --replace does: live streams get `restart`. */
  async replace(documents: SanityDocument[]) {
    await this.dataset.replace(documents);
    this.scheduler.arm();
    this.queries.forget();
    this.live.restart();
  }

  close() {
    this.unwatch?.();
    this.scheduler.stop();
    clearInterval(this.heartbeat);
    this.listeners.close();
    this.live.close();
    this.dataset.close();
  }

  private async notifyStreams(transaction: Transaction) {
    const ids = transaction.changes.map((change) => change.id);
    await this.listeners.tell(transaction);
    // Only documents on the root path are public; a write to drafts, versions or system documents
    // reaches includeDrafts streams only.
    const tags = await this.queries.tagsChangedBy(this.dataset.documents(), ids);
    this.live.message(tags, !ids.some(isPublishedId));
  }
}
