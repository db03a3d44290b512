/**
 * The Live Content API's event stream (sanity.io/docs/live-api-reference), as @sanity/client's
 * `live.events()` reads it: Server-Sent Events with opaque, ordered ids.
 *
 * - A new connection gets `welcome` (data {}) at the current position.
 * - A connection that resumes (Last-Event-ID header, or the `lastEventId` query parameter that the
 *   browser EventSource polyfill sends) gets the messages it missed; if that position is unknown (another
 *   run, replaced dataset, or older than the kept log) its first event is `restart`, as the reference says.
 * - `message` carries {tags}; a write that touched only drafts or versions reaches includeDrafts streams only.
 * - `restart` to everyone when the dataset is replaced wholesale; `goaway` instead of a stream past the limit.
 */
import { newId } from './errors.ts';
import { eventStream, type EventStream } from './sse.ts';

type Stream = { events: EventStream; includeDrafts: boolean };
type Logged = { seq: number; tags: string[]; draftsOnly: boolean };
type OpenOptions = { includeDrafts: boolean; lastEventId?: string; headers: Record<string, string>; signal?: AbortSignal };

const KEEP = 200;

export class LiveEvents {
  private readonly streams = new Set<Stream>();
  private epoch = newId(6);
  private seq = 0;
  private log: Logged[] = [];
  private readonly maxStreams: number;

  constructor(maxStreams: number) {
    this.maxStreams = maxStreams;
  }

  size = () => this.streams.size;

  private idOf(position: number) {
    return Buffer.from(`${this.epoch}|${position}`).toString('base64url');
  }

  private positionOf(id: string): number | undefined {
    const [idEpoch, position] = Buffer.from(id, 'base64url').toString().split('|');
    const n = Number(position);
    // Resumable only within this epoch and no further back than the oldest kept event.
    return idEpoch === this.epoch && Number.isInteger(n) && n <= this.seq && n >= (this.log[0]?.seq ?? this.seq + 1) - 1 ? n : undefined;
  }

  open({ includeDrafts, lastEventId, headers, signal }: OpenOptions): Response {
    const stream: Stream = { includeDrafts, events: eventStream(signal, headers, () => this.streams.delete(stream)) };
    const { events } = stream;
    if (this.streams.size >= this.maxStreams) {
      events.send('goaway', { reason: 'connection limit reached' }, this.idOf(this.seq));
      events.close();
      return events.response;
    }
    this.streams.add(stream);
    const from = lastEventId ? this.positionOf(lastEventId) : undefined;
    if (!lastEventId) events.send('welcome', {}, this.idOf(this.seq));
    else if (from === undefined) events.send('restart', {}, this.idOf(this.seq));
    else
      for (const logged of this.log)
        if (logged.seq > from && (includeDrafts || !logged.draftsOnly))
          events.send('message', { tags: logged.tags }, this.idOf(logged.seq));
    return events.response;
  }

  /** One write's sync tags, to every stream that may see it. */
  message(tags: string[], draftsOnly: boolean) {
    if (tags.length === 0) return;
    const logged = { seq: ++this.seq, tags, draftsOnly };
    this.log.push(logged);
    if (this.log.length > KEEP) this.log = this.log.slice(-KEEP);
    for (const { events, includeDrafts } of this.streams)
      if (includeDrafts || !draftsOnly) events.send('message', { tags }, this.idOf(logged.seq));
  }

  /** The dataset was replaced: every position so far is void. */
  restart() {
    this.epoch = newId(6);
    this.seq = 0;
    this.log = [];
    for (const { events } of this.streams) events.send('restart', {}, this.idOf(this.seq));
  }

  beat() {
    for (const { events } of this.streams) events.comment('ping');
  }

  close() {
    for (const { events } of [...this.streams]) events.close();
  }
}
