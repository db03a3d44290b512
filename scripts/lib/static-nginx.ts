/**
 * The limit a page view through the stack is measured against: the same nginx serving the same
 * prerendered HTML as a file from disk (a static server block), with the compression of
 * deploy/nginx.conf.template, so that the only difference left is where the bytes come from.
 */
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { brotliBlocks, brotliModules, startNginx } from '../../testkit/nginx.ts';
import { waitForHttp } from '../../testkit/processes.ts';

/** Serves `htmlFile` at `/` on 127.0.0.1:port, from a copy under `runDir`. */
export async function startStaticNginx({ bin, runDir, port, htmlFile }: { bin: string; runDir: string; port: number; htmlFile: string }) {
  const www = path.join(runDir, 'www');
  await mkdir(path.join(runDir, 'tmp'), { recursive: true });
  await mkdir(www, { recursive: true });
  await copyFile(htmlFile, path.join(www, 'index.html'));
  const brotli = brotliBlocks(brotliModules(bin));
  // Workers, keep-alive and compression as in deploy/nginx.conf.template: the HTML is compressed for
  // each request there too (the cache keeps one plain copy).
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
    gzip on;
    gzip_comp_level 5;
    gzip_min_length 256;
    gzip_vary on;
${brotli.BROTLI}
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
