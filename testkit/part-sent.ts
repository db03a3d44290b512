/**
 * A page as a slow network delivers it: a proxy in front of `origin` that sends each HTML document in
 * parts, cut just after the header's first link and inside <main>'s first paragraph, with a pause at each
 * cut long enough for a browser to paint what it has. Everything else passes through whole. Without
 * something that holds the first paint, the header is painted half-built and its links move as the rest
 * arrives, and a centered paragraph re-centers its last line.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Long enough for a browser to paint the first part on a busy machine (it does in about 0.25 s here). */
const PAUSE_MS = 1000;

/** Where a half-built page differs from a whole one: after the header's first link, and 8 characters into <main>'s first paragraph. */
function cutsOf(html: string): number[] {
  const link = html.indexOf('</a>', html.indexOf('<nav', html.indexOf('<header')));
  const paragraph = html.indexOf('<p', html.indexOf('<main'));
  const text = paragraph === -1 ? -1 : html.indexOf('>', paragraph) + 1 + 8;
  if (link === -1 || text <= 0 || html.indexOf('<', text - 8) < text)
    throw new Error('part-sent: the page needs a link in <header><nav> and a paragraph of 8 characters or more in <main>');
  return [link + '</a>'.length, text];
}

export async function partSent(origin: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((request, response) => {
    void (async () => {
      const upstream = await fetch(new URL(request.url!, origin), { headers: { accept: request.headers.accept ?? '*/*' } });
      const type = upstream.headers.get('content-type') ?? 'application/octet-stream';
      response.writeHead(upstream.status, { 'content-type': type });
      if (!type.startsWith('text/html')) return response.end(Buffer.from(await upstream.arrayBuffer()));
      const html = await upstream.text();
      let sent = 0;
      for (const cut of cutsOf(html)) {
        response.write(html.slice(sent, cut));
        sent = cut;
        await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
      }
      response.end(html.slice(sent));
    })().catch((error: unknown) => response.destroy(error as Error));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
