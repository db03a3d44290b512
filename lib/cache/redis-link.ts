/**
 * The one Redis connection of a server process, shared by the cache handlers and the webhook's replay
 * memory. Redis is an accelerator here, never a dependency: every call has a deadline and a fallback
 * answer, so a Redis that is down, unreachable or frozen costs a page at most one deadline, and the
 * instance carries on with its own memory. The logs get one line per change (down, back), not one per
 * request. Only relative imports with real extensions: Node loads the cache handlers, and so this
 * file, without the app's bundler.
 */
import { once } from 'node:events';

import { Redis } from 'ioredis';

import { redisLocation, redisUrl } from '../env/redis.ts';

/** How long any Redis call may take before the caller goes on without it (a page waits at most this). */
export const REDIS_DEADLINE_MS = 300;
/** After a failed call, how long calls skip Redis before one tries again, so an outage costs few deadlines. */
export const REDIS_RETRY_MS = 1000;
/** Every key of this site starts with it, so one Redis can serve other things too. */
export const KEY_PREFIX = 'school-site:';

type Log = (line: string) => void;

export class RedisLink {
  readonly client: Redis;
  private readonly where: string;
  private state: 'unknown' | 'up' | 'down' = 'unknown';
  private skipUntil = 0;
  private connecting: Promise<unknown> | null = null;
  private readonly log: { up: Log; down: Log };

  // No parameter properties in lib/cache/: Node strips types here, and cannot strip those.
  constructor(url: string, log: { up: Log; down: Log } = { up: console.log, down: console.error }) {
    this.log = log;
    this.where = redisLocation(url);
    this.client = new Redis(url, {
      commandTimeout: REDIS_DEADLINE_MS,
      connectTimeout: 2000,
      // Fail at once while disconnected instead of queueing until Redis is back: a page never waits for a reconnect.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      // Reconnects in the background for as long as the process lives.
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    });
    this.client.on('ready', () => this.markUp());
    // ioredis reports each failed reconnect here; without a listener the process would crash.
    this.client.on('error', (error: Error) => this.markDown(error.message));
    this.client.on('close', () => this.markDown('connection closed'));
  }

  /** Whether the last call or connection event found Redis working. */
  get up(): boolean {
    return this.state === 'up';
  }

  /**
   * Runs `operation` within the deadline; `fallback` when Redis is down, slow or failing (and, for a
   * second after a failure, without trying). Never throws.
   */
  async run<T>(operation: (client: Redis) => Promise<T>, fallback: T): Promise<T> {
    // A process's first calls wait for the first connection, within the deadline.
    if (this.state === 'unknown') await this.firstConnection();
    if (this.client.status !== 'ready' || Date.now() < this.skipUntil) return fallback;
    try {
      const result = await operation(this.client);
      this.markUp();
      return result;
    } catch (error) {
      this.markDown((error as Error).message);
      return fallback;
    }
  }

  private firstConnection(): Promise<unknown> {
    this.connecting ??= Promise.race([
      once(this.client, 'ready'),
      new Promise((resolve) => setTimeout(resolve, REDIS_DEADLINE_MS).unref()),
    ]);
    return this.connecting;
  }

  /** Closes the connection (tests; a server just exits). */
  async close(): Promise<void> {
    this.client.removeAllListeners('close');
    this.client.disconnect();
  }

  private markUp(): void {
    this.skipUntil = 0;
    if (this.state === 'up') return;
    this.state = 'up';
    this.log.up(`Redis at ${this.where} is reachable: this instance shares its cache, publishes and webhook replay memory.`);
  }

  private markDown(reason: string): void {
    this.skipUntil = Date.now() + REDIS_RETRY_MS;
    if (this.state === 'down') return;
    this.state = 'down';
    this.log.down(
      `Redis at ${this.where} is unreachable (${reason}): this instance serves from its own memory and applies publishes to itself only, until Redis is back (retrying in the background).`,
    );
  }
}

const LINK = Symbol.for('school-site.redis-link');
type WithLink = typeof globalThis & { [LINK]?: RedisLink };

/**
 * The process's link to REDIS_URL, or null without one (and while `next build` prerenders: a build
 * neither reads nor fills the shared cache). Kept on globalThis: the handlers (loaded by Node) and the
 * webhook route (in the bundle) each have their own copy of this module, and share one connection.
 */
export function sharedRedis(): RedisLink | null {
  const url = redisUrl();
  if (!url || process.env.NEXT_PHASE === 'phase-production-build') return null;
  const scope = globalThis as WithLink;
  return (scope[LINK] ??= new RedisLink(url));
}
