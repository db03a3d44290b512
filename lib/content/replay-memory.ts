import { KEY_PREFIX, sharedRedis, type RedisLink } from '@/lib/cache/redis-link';

import { SeenSignatures, type ReplayMemory } from './webhook';

/**
 * The webhook's replay memory, kept in Redis when one is configured (REDIS_URL), so a call accepted by
 * one instance is refused by every other: SET NX, expiring with the signature's window. This
 * instance's own memory keeps every signature too, and decides alone while Redis does not answer (the
 * Redis link logs the outage): a replay to another instance is then possible, as with no Redis at all.
 */
export class SharedSeenSignatures implements ReplayMemory {
  constructor(
    private readonly link: RedisLink,
    private readonly local = new SeenSignatures(),
  ) {}

  async add(signature: string, expiresAt: number, now: number): Promise<boolean> {
    if (!this.local.add(signature, expiresAt, now)) return false;
    const ttl = Math.max(1, expiresAt - now);
    const taken = await this.link.run(async (client) => (await client.set(keyOf(signature), '1', 'PX', ttl, 'NX')) === 'OK', null);
    // Seen by another instance: Redis decides, and a forget() there lets the call in here too.
    if (taken === false) this.local.forget(signature);
    return taken ?? true;
  }

  async forget(signature: string): Promise<void> {
    this.local.forget(signature);
    await this.link.run((client) => client.del(keyOf(signature)), 0);
  }
}

const keyOf = (signature: string) => `${KEY_PREFIX}webhook:${signature}`;

/** The replay memory for this process: shared through Redis when REDIS_URL is set, this process's own otherwise. */
export function replayMemory(): ReplayMemory {
  const link = sharedRedis();
  return link ? new SharedSeenSignatures(link) : new SeenSignatures();
}
