/**
 * The limit a page view through the stack is measured against: the same nginx serving the same page
 * as files from disk, compressed once (gzip_static, brotli_static): the stack's own copies of the page,
 * byte for byte, so that the only difference left is where the bytes come from.
 */
import http from 'node:http';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { brotliBlocks, brotliModules, startNginx } from '../../testkit/nginx.ts';
import { waitForHttp } from '../../testkit/processes.ts';

/** The bytes `url` answers with Accept-Encoding `encoding`, as sent (not decompressed). */
function rawBody(url: string, encoding: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': encoding }, agent: false }, (response) => {
        const sent = response.headers['content-encoding'] ?? 'identity';
        if (response.statusCode !== 200 || sent !== encoding)
          reject(new Error(`${url} answered ${response.statusCode} in ${sent} when asked for ${encoding}`));
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve(Buffer.concat(chunks)));
      })
      .on('error', reject);
  });
}

/** The plain, gzip and brotli copies of the page at `url` (the stack's cache keeps them so). */
export const pageCopies = async (url: string) => ({
  html: await rawBody(url, 'identity'),
  gzip: await rawBody(url, 'gzip'),
  br: await rawBody(url, 'br'),
});

/** Serves `page` at `/` on 127.0.0.1:port, from files under `runDir`. */
export async function startStaticNginx({
  bin,
  runDir,
  port,
  page,
}: {
  bin: string;
  runDir: string;
  port: number;
  page: Awaited<ReturnType<typeof pageCopies>>;
}) {
  const www = path.join(runDir, 'www');
  await mkdir(path.join(runDir, 'tmp'), { recursive: true });
  await mkdir(www, { recursive: true });
  await writeFile(path.join(www, 'index.html'), page.html);
  await writeFile(path.join(www, 'index.html.gz'), page.gzip);
  await writeFile(path.join(www, 'index.html.br'), page.br);
  const brotli = brotliBlocks(brotliModules(bin));
  // Workers and keep-alive as in deploy/nginx.conf.template; nothing compressed per request.
  const config = `${brotli.LOAD_MODULES}
${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes auto;
pid "${runDir}/nginx.pid";
error_log stderr warn;
daemon off;
events { worker_connections 1024; }
http {
    types { text/html html; }
    access_log off;
    server_tokens off;
    sendfile on;
    tcp_nopush on;
    keepalive_timeout 30s;
    client_body_temp_path "${runDir}/tmp/body";
    proxy_temp_path "${runDir}/tmp/proxy";
    fastcgi_temp_path "${runDir}/tmp/fastcgi";
    uwsgi_temp_path "${runDir}/tmp/uwsgi";
    scgi_temp_path "${runDir}/tmp/scgi";
    gzip_static on;
    gzip_vary on;
${brotli.BROTLI_STATIC}
    server {
        listen 127.0.0.1:${port};
        root "${www}";
        location = / { try_files /index.html =404; }
    }
}
`;
  const file = path.join(runDir, 'nginx.conf');
  await writeFile(file, config);
  const nginx = startNginx({ bin, runDir, config: file });
  const origin = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${origin}/`, { child: nginx, timeoutMs: 10_000 });
  } catch (error) {
    await nginx.stop();
    throw error;
  }
  return { origin, stop: () => nginx.stop({ signal: 'SIGQUIT' }) };
}
