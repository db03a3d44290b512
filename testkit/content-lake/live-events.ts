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

export function createLiveEvents(options: { maxStreams: number; heartbeatMs: number; keep?: number }) {
  const streams = new Set<Stream>();
  const keep = options.keep ?? 200;
  let epoch = newId(6);
  let seq = 0;
  let log: Logged[] = [];
  let heartbeat: NodeJS.Timeout | undefined;

  const idOf = (position: number) => Buffer.from(`${epoch}|${position}`).toString('base64url');
  const positionOf = (id: string | undefined): number | undefined => {
    const [idEpoch, position] = Buffer.from(id ?? '', 'base64url')
      .toString()
      .split('|');
    const n = Number(position);
    // Resumable only within this epoch and no further back than the oldest kept event.
    return idEpoch === epoch && Number.isInteger(n) && n <= seq && n >= (log[0]?.seq ?? seq + 1) - 1 ? n : undefined;
  };
  const write = (stream: Stream, event: string, data: unknown, id?: string) =>
    stream.res.write(`${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  const visible = (stream: Stream, logged: Logged) => stream.includeDrafts || !logged.draftsOnly;

  return {
    size: () => streams.size,

    open(
      req: IncomingMessage,
      res: ServerResponse,
      { includeDrafts, lastEventId, headers }: { includeDrafts: boolean; lastEventId?: string; headers: Record<string, string> },
    ) {
      res.writeHead(200, {
        ...headers,
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      const stream: Stream = { res, includeDrafts };
      if (streams.size >= options.maxStreams) {
        write(stream, 'goaway', { reason: 'connection limit reached' }, idOf(seq));
        res.end();
        return;
      }
      streams.add(stream);
      req.socket.setTimeout(0);
      res.on('close', () => streams.delete(stream));
      const from = lastEventId ? positionOf(lastEventId) : undefined;
      if (!lastEventId) write(stream, 'welcome', {}, idOf(seq));
      else if (from === undefined) write(stream, 'restart', {}, idOf(seq));
      else
        for (const logged of log)
          if (logged.seq > from && visible(stream, logged)) write(stream, 'message', { tags: logged.tags }, idOf(logged.seq));
      heartbeat ??= setInterval(() => streams.forEach((s) => s.res.write(': ping\n\n')), options.heartbeatMs).unref();
    },

    /** One write's sync tags, to every stream that may see it. */
    message(tags: string[], draftsOnly: boolean) {
      if (tags.length === 0) return;
      const logged = { seq: ++seq, tags, draftsOnly };
      log.push(logged);
      if (log.length > keep) log = log.slice(-keep);
      for (const stream of streams) if (visible(stream, logged)) write(stream, 'message', { tags }, idOf(logged.seq));
    },

    /** The dataset was replaced: every position so far is void. */
    restart() {
      epoch = newId(6);
      seq = 0;
      log = [];
      for (const stream of streams) write(stream, 'restart', {}, idOf(seq));
    },

    close() {
      clearInterval(heartbeat);
      heartbeat = undefined;
      for (const stream of streams) stream.res.end();
      streams.clear();
    },
  };
}
