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
 * - A comment line every `heartbeatMs` keeps proxies from closing an idle stream.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { newId } from './mutations.ts';

type Stream = { res: ServerResponse; includeDrafts: boolean };
type Logged = { seq: number; tags: string[]; draftsOnly: boolean };

type Options = { maxStreams: number; heartbeatMs: number; keep?: number };
type OpenOptions = { includeDrafts: boolean; lastEventId?: string; headers: Record<string, string> };

class LiveEvents {
  private readonly streams = new Set<Stream>();
  private epoch = newId(6);
  private seq = 0;
  private log: Logged[] = [];
  private heartbeat: NodeJS.Timeout | undefined;

  private readonly options: Options;

  constructor(options: Options) {
    this.options = options;
  }

  size = () => this.streams.size;

  private idOf(position: number) {
    return Buffer.from(`${this.epoch}|${position}`).toString('base64url');
  }

  private positionOf(id: string | undefined): number | undefined {
    const [idEpoch, position] = Buffer.from(id ?? '', 'base64url')
      .toString()
      .split('|');
    const n = Number(position);
    // Resumable only within this epoch and no further back than the oldest kept event.
    return idEpoch === this.epoch && Number.isInteger(n) && n <= this.seq && n >= (this.log[0]?.seq ?? this.seq + 1) - 1 ? n : undefined;
  }

  private write(stream: Stream, event: string, data: unknown, id?: string) {
    stream.res.write(`${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  private visible(stream: Stream, logged: Logged) {
    return stream.includeDrafts || !logged.draftsOnly;
  }

  open(req: IncomingMessage, res: ServerResponse, { includeDrafts, lastEventId, headers }: OpenOptions) {
    res.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    const stream: Stream = { res, includeDrafts };
    if (this.streams.size >= this.options.maxStreams) {
      this.write(stream, 'goaway', { reason: 'connection limit reached' }, this.idOf(this.seq));
      res.end();
      return;
    }
    this.streams.add(stream);
    req.socket.setTimeout(0);
    res.on('close', () => this.streams.delete(stream));
    const from = lastEventId ? this.positionOf(lastEventId) : undefined;
    if (!lastEventId) this.write(stream, 'welcome', {}, this.idOf(this.seq));
    else if (from === undefined) this.write(stream, 'restart', {}, this.idOf(this.seq));
    else
      for (const logged of this.log)
        if (logged.seq > from && this.visible(stream, logged)) this.write(stream, 'message', { tags: logged.tags }, this.idOf(logged.seq));
    this.heartbeat ??= setInterval(() => this.streams.forEach((s) => s.res.write(': ping\n\n')), this.options.heartbeatMs).unref();
  }

  /** One write's sync tags, to every stream that may see it. */
  message(tags: string[], draftsOnly: boolean) {
    if (tags.length === 0) return;
    const logged = { seq: ++this.seq, tags, draftsOnly };
    this.log.push(logged);
    const keep = this.options.keep ?? 200;
    if (this.log.length > keep) this.log = this.log.slice(-keep);
    for (const stream of this.streams) if (this.visible(stream, logged)) this.write(stream, 'message', { tags }, this.idOf(logged.seq));
  }

  /** The dataset was replaced: every position so far is void. */
  restart() {
    this.epoch = newId(6);
    this.seq = 0;
    this.log = [];
    for (const stream of this.streams) this.write(stream, 'restart', {}, this.idOf(this.seq));
  }

  close() {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    for (const stream of this.streams) stream.res.end();
    this.streams.clear();
  }
}

export const createLiveEvents = (options: Options) => new LiveEvents(options);
