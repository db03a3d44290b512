/**
 * `publish` — the publish row of `site` on its own, for a quick check after a change to caching: on the
 * current build behind nginx's cache (serve:prod's stack, a private copy of the standalone folder and of
 * the seed dataset), PUBLISH_EDITS=20 edits, each posted as a signed webhook, timed from before the
 * webhook is sent to the first GET /privacy through nginx that shows it; then as many new versions of the
 * policy (a later "Last updated" and a new summary, published the same way), timed to the first GET /privacy/versions
 * through nginx that lists it, with one instance.
 * INSTANCES=2 (or more) runs that many app instances behind nginx's one upstream, with one redis-server
 * (REDIS_URL, testkit/redis.ts) and the Supabase stand-in over Debian's PostgreSQL (testkit/postgres.ts)
 * as their shared store; the webhook goes through nginx, and each publish is timed until every instance
 * (asked directly) and nginx show it.
 */
import path from 'node:path';

import { startSupabaseStack, supabaseEnv } from '../testkit/postgrest-harness.ts';
import { measurePublishes, POLICY_VERSION } from '../testkit/publish-timing.ts';
import { startRedis } from '../testkit/redis.ts';
import { publishRow } from './lib/publish-row.ts';
import { privateSite, privateStack } from './lib/servers.ts';
import { withTempDir } from './lib/temp-dir.ts';
import { envInt, type Report } from './report.ts';

const log = (line: string) => process.stderr.write(`[publish] ${line}\n`);

/** What several instances share (Redis, the Supabase stand-in), started for `run` and stopped after it. */
async function withSharedStore<T>(instances: number, run: (env: Record<string, string>) => Promise<T>): Promise<T> {
  if (instances === 1) return run({});
  const redis = await startRedis();
  try {
    const supabase = await startSupabaseStack({ database: 'postgres' });
    try {
      return await run({
        REDIS_URL: redis.url,
        ...supabaseEnv(supabase),
      });
    } finally {
      await supabase.close();
    }
  } finally {
    await redis.close();
  }
}

export async function measure(): Promise<Report> {
  const instances = envInt('INSTANCES', 1);
  const edits = envInt('PUBLISH_EDITS', 20);
  const result = await withTempDir('publish', (dir) =>
    withSharedStore(instances, async (shared) => {
      const site = await privateSite(dir, log);
      const env = { ...process.env, ...site.env, ...shared, DATA_DIR: path.join(dir, 'data') };
      const stack = await privateStack(dir, site, instances, env, log);
      try {
        // One instance: what visitors see, through nginx. Several: each instance asked directly, and nginx.
        const watch = instances > 1 ? [...stack.apps.map((app) => app.origin), stack.url] : [stack.url];
        const options = { contentFile: site.contentFile, secret: site.secret, publishTo: stack.url, watch };
        const section = await measurePublishes(options, { count: edits, log });
        // A new version of the policy, until /privacy/versions lists it.
        const version = instances === 1 ? await measurePublishes(options, { count: edits, log, target: POLICY_VERSION }) : undefined;
        return { section, version };
      } finally {
        await stack.stop();
      }
    }),
  );
  const measured =
    instances > 1 ? `publish → visible on all ${instances} instances and through nginx` : 'publish → visible through the cache';
  const rows = [publishRow(measured, result.section, edits)];
  if (result.version) rows.push(publishRow('publish of a new version → /privacy/versions through the cache', result.version, edits));
  return { rows, details: { instances, edits, result } };
}
