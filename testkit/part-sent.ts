/**
 * A page as a slow network delivers it: a proxy in front of `origin` that sends each HTML document in two
 * parts, cut inside the header just after its first link, with a pause between them long enough for a
 * browser to paint what it has. Everything else passes through whole. Without something that holds the
 * first paint, the header is painted half-built, and its links move as the rest arrives.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Long enough for a browser to paint the first part on a busy machine (it does in about 0.25 s here). */
const PAUSE_MS = 1000;

/** Just after the first link inside the page's <header>: the point where a half-built header differs from a whole one. */
function cutOf(html: string): number {
  const header = html.indexOf('<header');
  const link = header === -1 ? -1 : html.indexOf('</a>', html.indexOf('<nav', header));
  if (link === -1) throw new Error('part-sent: the page has no link inside <header><nav> to cut after');
  return link + '</a>'.length;
}

export async function partSent(origin: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((request, response) => {
    void (async () => {
      const upstream = await fetch(new URL(request.url!, origin), { headers: { accept: request.headers.accept ?? '*/*' } });
      const type = upstream.headers.get('content-type') ?? 'application/octet-stream';
      response.writeHead(upstream.status, { 'content-type': type });
      if (!type.startsWith('text/html')) return response.end(Buffer.from(await upstream.arrayBuffer()));
      const html = await upstream.text();
      const cut = cutOf(html);
      response.write(html.slice(0, cut));
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
      response.end(html.slice(cut));
    })().catch((error: unknown) => response.destroy(error as Error));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
