import { expect, test } from '@playwright/test';

import { PUBLISHED_PAGE, timePublish, visibleAfter } from '../../testkit/publish-timing.ts';
import { startSharedCachePair, type SharedCachePair } from '../../testkit/shared-cache-pair.ts';

/**
 * Two production instances of the build with REDIS_URL (lib/cache/): a publish sent to one is served
 * by both. No browser: what matters is what each server sends. The instances are this file's own.
 */
test.describe.configure({ mode: 'serial' });

/** How soon the other instance must serve a publish (issue 21). */
const LIMIT_MS = 2000;
let pair: SharedCachePair;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  pair = await startSharedCachePair();
});
test.afterAll(async () => pair?.stop());

const publish = () => {
  const [a, b] = pair.instances;
  return timePublish({ contentFile: pair.contentFile, secret: pair.secret, publishTo: a.origin, watch: [a.origin, b.origin] }, LIMIT_MS);
};

test('a publish sent to instance A is served by instance B within 2 s', async () => {
  for (const server of pair.instances) expect((await fetch(server.origin + PUBLISHED_PAGE)).status).toBe(200);
  const { visible } = await publish();
  expect(visible, 'ms until A and B showed the publish (null: not within 2 s)').not.toContain(null);
});

test('with Redis stopped, A still shows its publish, B its old page, every page answers; once Redis is back, B catches up', async () => {
  test.setTimeout(60_000);
  const [a, b] = pair.instances;
  await pair.redis.stop();
  const { visible, text } = await publish();
  expect(visible[0], 'A shows the publish it received').not.toBeNull();
  expect(visible[1], 'B cannot know of it').toBeNull();
  for (const server of pair.instances) {
    for (const path of ['/', '/support', '/privacy']) expect((await fetch(server.origin + path)).status).toBe(200);
  }
  expect(a.output()).toContain('is unreachable');
  expect(a.output()).toContain('Revalidated privacyPolicy on this instance only');

  await pair.redis.start();
  // A sends the revalidation Redis missed as soon as it reconnects (it retries every 2 s at most).
  expect(await visibleAfter(b.origin, text, performance.now(), 15_000)).not.toBeNull();
  expect(b.output()).toMatch(/is unreachable[\s\S]*is reachable/);
});
