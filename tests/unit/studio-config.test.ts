import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import { afterAll, describe, expect, it, vi } from 'vitest';

/**
 * The Studio's beta hook the embedded default relies on: `unstable_clientFactory` (sanity 5.31.2,
 * @beta @hidden) gives every client of the Studio path-style URLs on the local lake. A newer sanity may
 * change or drop it, so the version is pinned, and this checks the hook still does what the Studio needs.
 * (That the Studio then works on it, in a browser: tests/e2e/studio.spec.ts.)
 */

const require = createRequire(import.meta.url);

afterAll(() => vi.unstubAllGlobals());

describe('the Studio on the local lake', () => {
  it('is sanity 5.31.2, pinned exactly', () => {
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> };
    expect(manifest.dependencies.sanity).toBe('5.31.2');
    expect((require('sanity/package.json') as { version: string }).version).toBe('5.31.2');
    // The workspace reads the hook under this name when it makes its clients (and its auth store's).
    const studio = readFileSync(require.resolve('sanity'), 'utf8');
    expect(studio).toContain('source.unstable_clientFactory || createClient');
    // The HTTP/1.1 warning's own snooze, which app/studio/studio.tsx sets for the local lake.
    expect(studio).toContain('useSessionStorageState("sanity-studio.network.check.snooze")');
  });

  it("makes every client path-style on the lake of the page's own origin, whatever project host it was given", async () => {
    await import('sanity');
    vi.stubGlobal('window', { location: { origin: 'http://127.0.0.1:3100' } });
    const { default: config } = await import('@/studio/sanity.config');
    const workspace = Array.isArray(config) ? config[0] : config;
    expect(workspace.projectId).toBe('local');
    const client = workspace.unstable_clientFactory!({
      projectId: 'local',
      dataset: 'production',
      apiVersion: '2025-02-19',
      useProjectHostname: true,
    });
    expect(client.getUrl('/data/query/production')).toBe('http://127.0.0.1:3100/api/lake/v2025-02-19/data/query/production');
    expect(client.withConfig({ apiVersion: '2022-06-30' }).getUrl('/socket/production')).toBe(
      'http://127.0.0.1:3100/api/lake/v2022-06-30/socket/production',
    );
    // The lake keeps releases and runs their schedule; the old plugin's /schedules API it does not have.
    expect(workspace.releases).toEqual({ enabled: true });
    expect(workspace.scheduledDrafts).toEqual({ enabled: true });
    expect(workspace.scheduledPublishing).toEqual({ enabled: false });
  });
});
