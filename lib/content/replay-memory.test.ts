import { encodeSignatureHeader, SIGNATURE_HEADER_NAME } from '@sanity/webhook';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { RedisLink } from '@/lib/cache/redis-link';
import { startRedis, type RedisServer } from '@/testkit/redis';

import { SharedSeenSignatures } from './replay-memory';
import { SIGNATURE_WINDOW_MS, verifyWebhook, WEBHOOK_REFUSALS } from './webhook';

/** The webhook's replay memory shared through a real redis-server; each "instance" has its own connection and memory. */
let redis: RedisServer;
const links: RedisLink[] = [];
const logs: string[] = [];

function instance(): SharedSeenSignatures {
  const link = new RedisLink(redis.url, { up: (line) => logs.push(line), down: (line) => logs.push(line) });
  links.push(link);
  return new SharedSeenSignatures(link);
}

beforeAll(async () => {
  redis = await startRedis();
});
afterEach(async () => {
  await Promise.all(links.splice(0).map((link) => link.close()));
  logs.length = 0;
  await redis.stop();
  await redis.start();
});
afterAll(async () => redis?.close());

const SECRET = 'replay-test-secret';
async function signedCall(payload: string, timestamp = Date.now()) {
  const signature = await encodeSignatureHeader(payload, timestamp, SECRET);
  return () =>
    new Request('http://localhost/api/revalidate', { method: 'POST', headers: { [SIGNATURE_HEADER_NAME]: signature }, body: payload });
}

describe('SharedSeenSignatures', () => {
  it('a signature accepted by one instance is refused by another, until it is forgotten', async () => {
    const [a, b] = [instance(), instance()];
    const now = Date.now();
    expect(await a.add('t=1,v1=x', now + 60_000, now)).toBe(true);
    expect(await b.add('t=1,v1=x', now + 60_000, now)).toBe(false);
    expect(await a.add('t=1,v1=x', now + 60_000, now)).toBe(false);
    expect(await b.add('t=2,v1=y', now + 60_000, now)).toBe(true);
    await a.forget('t=1,v1=x');
    expect(await b.add('t=1,v1=x', now + 60_000, now)).toBe(true);
  });

  it('Redis forgets a signature when its window closes', async () => {
    const [a, b] = [instance(), instance()];
    const now = Date.now();
    expect(await a.add('t=3,v1=z', now + 150, now)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await b.add('t=3,v1=z', Date.now() + 150, Date.now())).toBe(true);
  });

  it('through verifyWebhook: the second delivery of one call, to another instance, is refused as a replay', async () => {
    const [a, b] = [instance(), instance()];
    const call = await signedCall('{"_type":"privacyPolicy","_id":"privacyPolicy"}');
    expect(await verifyWebhook(call(), SECRET, { seen: a })).toMatchObject({ ok: true });
    expect(await verifyWebhook(call(), SECRET, { seen: b })).toEqual({ ok: false, status: 409, message: WEBHOOK_REFUSALS.replayed });
  });

  it('with Redis stopped, each instance falls back to its own memory and the log says so once', async () => {
    const [a, b] = [instance(), instance()];
    const now = Date.now();
    expect(await a.add('t=4,v1=w', now + SIGNATURE_WINDOW_MS, now)).toBe(true);
    await redis.stop();
    expect(await a.add('t=4,v1=w', now + SIGNATURE_WINDOW_MS, now)).toBe(false);
    expect(await a.add('t=5,v1=v', now + SIGNATURE_WINDOW_MS, now)).toBe(true);
    expect(await a.add('t=5,v1=v', now + SIGNATURE_WINDOW_MS, now)).toBe(false);
    // B cannot ask anyone: it accepts what it has not seen itself.
    expect(await b.add('t=5,v1=v', now + SIGNATURE_WINDOW_MS, now)).toBe(true);
    expect(logs.filter((line) => line.includes('is unreachable'))).toHaveLength(2);
  });

  it('with Redis frozen, a call is decided by this instance after the deadline instead of waiting', async () => {
    const a = instance();
    const now = Date.now();
    expect(await a.add('t=6,v1=u', now + SIGNATURE_WINDOW_MS, now)).toBe(true);
    redis.freeze();
    try {
      expect(await a.add('t=7,v1=t', now + SIGNATURE_WINDOW_MS, now)).toBe(true);
      expect(await a.add('t=6,v1=u', now + SIGNATURE_WINDOW_MS, now)).toBe(false);
      expect(logs.filter((line) => line.includes('is unreachable (Command timed out)'))).toHaveLength(1);
    } finally {
      redis.thaw();
    }
  });
});
