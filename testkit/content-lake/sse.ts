/**
 * A raw Server-Sent Events read over fetch, for tests of what the clients hide: event names, ids, every
 * field of the data, and comments (heartbeats).
 *
 *   const stream = await readSse(`${lake.origin}/v2025-02-19/data/listen/production?query=*`);
 *   const welcome = await stream.until((event) => event.event === 'welcome');
 *   stream.close();
 */
export type SseEvent = { event?: string; id?: string; data?: unknown; comment?: string; at: number };

export type SseReader = {
  response: Response;
  /** Every event so far, in the order received. */
  events: SseEvent[];
  /** The first event that satisfies `predicate`, waiting for it up to `timeoutMs`. */
  until(predicate: (event: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  close(): void;
};

function parse(block: string): SseEvent {
  const at = performance.now();
  if (block.startsWith(':')) return { comment: block.slice(1).trim(), at };
  const fields = Object.fromEntries(block.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]));
  return { event: fields.event, id: fields.id, data: fields.data === undefined ? undefined : JSON.parse(fields.data), at };
}

export async function readSse(url: string, headers: Record<string, string> = {}): Promise<SseReader> {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
  const events: SseEvent[] = [];
  if (response.ok && response.body) {
    void (async () => {
      let buffer = '';
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        buffer += read.value;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          events.push(parse(buffer.slice(0, end)));
          buffer = buffer.slice(end + 2);
        }
      }
    })().catch(() => undefined);
  }
  const until = async (predicate: (event: SseEvent) => boolean, timeoutMs = 5_000) => {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const found = events.find(predicate);
      if (found) return found;
      if (performance.now() > deadline) throw new Error(`no such event in ${timeoutMs} ms; got ${JSON.stringify(events)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  return { response, events, until, close: () => controller.abort() };
}
