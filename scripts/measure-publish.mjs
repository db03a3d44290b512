#!/usr/bin/env node
/**
 * npm run measure:publish — how long a published edit takes to reach visitors.
 *
 * On the production build with the embedded defaults (its own `next start` on a free port, a temp
 * copy of the seed dataset as CONTENT_FILE, a webhook secret), it makes 20 edits: each changes a
 * privacy section's text in that copy, posts the webhook signed as Sanity signs it, and from the
 * moment the webhook answered loads /privacy again and again (plain GETs, nothing cached on the
 * client) until the HTML has the new text. Reports median and worst time (target: worst ≤ 2000 ms)
 * and how many first loads already showed the edit; writes bench/publish-report.json.
 *
 * The build is the bench build (scripts/bench.mjs, dist dir .next-bench, built when missing). The
 * server runs on a copy of it, so the edited pages it regenerates never reach the bench's build.
 *
 * Environment: PUBLISH_EDITS=20, PUBLISH_TIMEOUT_MS=10000 (per edit), BENCH_DIST_DIR. `--rebuild`
 * builds again; `--strict` exits 1 when the target is missed.
 */
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { DEFAULT_DIST_DIR, ensureSiteBuild, freePort, makeRunDir, ROOT, startNext, stopOnSignals } from './bench.mjs';
import { envInt } from './lib/env.mjs';
import { postWebhook, setSectionText } from './lib/publish.mjs';
import { median, table } from './lib/table.mjs';

const TARGET_WORST_MS = 2000;
const log = (message) => process.stderr.write(`[publish] ${message}\n`);

async function main() {
  const args = new Set(process.argv.slice(2));
  const edits = envInt('PUBLISH_EDITS', 20);
  const timeoutMs = envInt('PUBLISH_TIMEOUT_MS', 10_000);
  const temporary = [];
  stopOnSignals(async () => {
    for (const dir of temporary) await rm(dir, { recursive: true, force: true });
  });
  const build = await ensureSiteBuild({ distDir: DEFAULT_DIST_DIR, rebuild: args.has('--rebuild') || process.env.BENCH_REBUILD === '1' });

  const run = await makeRunDir('publish');
  // A private copy of the build: revalidation rewrites its prerendered pages.
  const distDir = `${DEFAULT_DIST_DIR}-publish-${process.pid}`;
  const distPath = path.join(ROOT, distDir);
  temporary.push(run.dir, distPath);
  const cacheDir = path.join(ROOT, DEFAULT_DIST_DIR, 'cache');
  await cp(path.join(ROOT, DEFAULT_DIST_DIR), distPath, { recursive: true, filter: (source) => source !== cacheDir && !source.startsWith(cacheDir + path.sep) });
  const secret = `publish-${process.pid}-${Date.now()}`;
  let server;
  const results = [];
  try {
    server = await startNext({
      distDir,
      port: await freePort(),
      name: 'site',
      env: { CONTENT_FILE: run.contentFile, DATA_DIR: run.dataDir, SANITY_REVALIDATE_SECRET: secret },
      readyPath: '/privacy',
    });
    log(`site on ${server.origin}; ${edits} edits`);
    const load = async () => {
      const response = await fetch(`${server.origin}/privacy`, { cache: 'no-store' });
      const html = await response.text();
      if (response.status !== 200) throw new Error(`/privacy answered ${response.status}`);
      return html;
    };
    await load();

    for (let edit = 1; edit <= edits; edit++) {
      // Letters, digits and spaces only, so the text reads the same in the HTML.
      const text = `Published edit ${edit} of run ${process.pid} at ${Date.now()}`;
      const heading = await setSectionText(run.contentFile, edit - 1, text);
      const posted = performance.now();
      await postWebhook(server.origin, secret, { _type: 'privacyPolicy', _id: 'privacyPolicy' });
      const answered = performance.now();
      let loads = 0;
      let seenMs = null;
      while (performance.now() - answered < timeoutMs) {
        loads++;
        const html = await load();
        if (html.includes(text)) {
          seenMs = performance.now() - answered;
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      results.push({
        edit,
        section: heading,
        webhookMs: Math.round(answered - posted),
        ms: seenMs == null ? null : Math.round(seenMs),
        loads,
        firstLoad: seenMs != null && loads === 1,
      });
      log(`edit ${edit}: ${seenMs == null ? `not visible after ${timeoutMs} ms` : `${Math.round(seenMs)} ms, ${loads} load(s)`}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await server?.stop();
    await rm(distPath, { recursive: true, force: true });
    await rm(run.dir, { recursive: true, force: true });
  }

  const seen = results.filter((result) => result.ms != null);
  const times = seen.map((result) => result.ms);
  const worst = seen.length === results.length ? Math.max(...times) : null;
  const report = {
    generatedAt: new Date().toISOString(),
    build: { distDir: DEFAULT_DIST_DIR, reused: build.reused, builtAt: build.builtAt ?? null },
    edits: results.length,
    visible: seen.length,
    medianMs: times.length ? median(times) : null,
    worstMs: worst,
    firstLoadShowed: results.filter((result) => result.firstLoad).length,
    webhookMedianMs: results.length ? median(results.map((result) => result.webhookMs)) : null,
    targetWorstMs: TARGET_WORST_MS,
    met: worst != null && worst <= TARGET_WORST_MS,
    results,
  };
  await mkdir(path.join(ROOT, 'bench'), { recursive: true });
  await writeFile(path.join(ROOT, 'bench', 'publish-report.json'), `${JSON.stringify(report, null, 2)}\n`);

  const rows = [
    ['publish → visible on /privacy', 'result', 'target', ''],
    ['median', `${report.medianMs ?? 'n/a'} ms`, '', ''],
    ['worst', worst == null ? `not visible in ${results.length - seen.length} edit(s)` : `${worst} ms`, `<= ${TARGET_WORST_MS} ms`, report.met ? 'ok' : 'MISSED'],
    ['first load showed the edit', `${report.firstLoadShowed} / ${results.length}`, '', ''],
    ['webhook answer (median, before the above)', `${report.webhookMedianMs ?? 'n/a'} ms`, '', ''],
  ];
  process.stdout.write(`${table(rows)}\n`);
  log('wrote bench/publish-report.json');
  if (args.has('--strict') && !report.met) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error?.stack ?? error);
  process.exit(1);
});
