/**
 * The listener (/data/listen, sanity.io/docs/listening): Server-Sent Events with one `mutation` event per
 * document a transaction changed that matches the stream's query, before or after. What the Studio needs
 * of each event: the transaction id it sent, `previousRev`/`resultRev` that chain from the document's
 * revisions, `effects` in mendoza format (those the history keeps: mendoza.ts), `visibility: 'query'` (anything else delays its lists), and counts per transaction that add
 * up for this stream, since the Studio holds a transaction's events back until it has all of them.
 */
import type { GroqTree } from './groq-js.ts';
import { isPublishedId, isVersionId, type SanityDocument } from './documents.ts';
import { newId } from './errors.ts';
import type { Params, Queries } from './queries.ts';
import { eventStream, type EventStream } from './sse.ts';
import { effectsOfChange, type Change, type Transaction } from './transaction.ts';

export type ListenOptions = {
  tree: GroqTree;
  params: Params;
  authenticated: boolean;
  includeResult: boolean;
  includePreviousRevision: boolean;
  includeMutations: boolean;
  includeAllVersions: boolean;
  mendoza: boolean;
};
type Stream = ListenOptions & { events: EventStream };

export class Listeners {
  private readonly streams = new Set<Stream>();
  private readonly queries: Queries;
  private readonly maxStreams: number;

  constructor(queries: Queries, maxStreams: number) {
    this.queries = queries;
    this.maxStreams = maxStreams;
  }

  size = () => this.streams.size;

  /** A new stream, or null when there are too many already. */
  open(options: ListenOptions, headers: Record<string, string>, signal?: AbortSignal): Response | null {
    if (this.streams.size >= this.maxStreams) return null;
    const stream: Stream = { ...options, events: eventStream(signal, headers, () => this.streams.delete(stream)) };
    this.streams.add(stream);
    stream.events.send('welcome', { listenerName: newId(8) });
    return stream.events.response;
  }

  async tell(transaction: Transaction): Promise<void> {
    for (const stream of this.streams) {
      const changes: Change[] = [];
      for (const change of transaction.changes) if (await this.concerns(stream, change)) changes.push(change);
      changes.forEach((change, index) => stream.events.send('mutation', event(stream, transaction, change, index, changes.length)));
    }
  }

  beat() {
    for (const { events } of this.streams) events.comment('ping');
  }

  close() {
    for (const { events } of [...this.streams]) events.close();
  }

  private async matches(stream: Stream, doc: SanityDocument | null): Promise<boolean> {
    if (!doc) return false;
    const found = await this.queries.run(stream.tree, [doc], stream.params).catch(() => null);
    return Array.isArray(found) ? found.length > 0 : found !== null && found !== false;
  }

  private async concerns(stream: Stream, { id, before, after }: Change): Promise<boolean> {
    if (!stream.authenticated && !isPublishedId(id)) return false;
    if (!stream.includeAllVersions && isVersionId(id)) return false;
    return (await this.matches(stream, before)) || (await this.matches(stream, after));
  }
}

function event(stream: Stream, transaction: Transaction, change: Change, index: number, total: number) {
  const { id, before, after } = change;
  return {
    eventId: `${transaction.id}#${id}`,
    documentId: id,
    transactionId: transaction.id,
    transition: !before ? 'appear' : !after ? 'disappear' : 'update',
    identity: transaction.identity,
    ...(stream.includeMutations ? { mutations: [after ? { createOrReplace: after } : { delete: { id } }] } : {}),
    previousRev: before?._rev,
    resultRev: after?._rev ?? transaction.id,
    timestamp: transaction.timestamp,
    visibility: 'query',
    ...(stream.mendoza ? { effects: effectsOfChange(change) } : {}),
    ...(stream.includeResult && after ? { result: after } : {}),
    ...(stream.includePreviousRevision && before ? { previous: before } : {}),
    transactionTotalEvents: total,
    transactionCurrentEvent: index + 1,
  };
}
