/**
 * A Server-Sent Events response: the listener and the live events API both answer with one. A stream
 * ends when the client goes away (the request's signal, or the reader cancelling) or the lake closes it.
 */
export type EventStream = {
  response: Response;
  send(event: string, data: unknown, id?: string): void;
  comment(text: string): void;
  close(): void;
  readonly closed: boolean;
};

const encoder = new TextEncoder();

export function eventStream(signal: AbortSignal | undefined, headers: Record<string, string>, onClose: () => void): EventStream {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let closed = false;
  const end = () => {
    if (closed) return;
    closed = true;
    signal?.removeEventListener('abort', end);
    try {
      controller?.close();
    } catch {
      // Cancelled by the reader already.
    }
    onClose();
  };
  const body = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
    },
    cancel: end,
  });
  signal?.addEventListener('abort', end);
  const write = (text: string) => {
    if (closed) return;
    try {
      controller!.enqueue(encoder.encode(text));
    } catch {
      end();
    }
  };
  return {
    response: new Response(body, {
      status: 200,
      headers: {
        ...headers,
        'content-type': 'text/event-stream',
        // no-transform: a compressing proxy (or Next's own compression) would hold events back.
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'no',
      },
    }),
    send: (event, data, id) => write(`${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`),
    comment: (text) => write(`: ${text}\n\n`),
    close: end,
    get closed() {
      return closed;
    },
  };
}
