import { randomUUID } from 'node:crypto';

import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { insertAsAnon, openStore } from '@/lib/store/pglite';

/**
 * The quotas of supabase/migrations/*_quotas.sql on a real Postgres (PGlite, in memory), written as the
 * anon role the public key maps to: what any app instance, or anyone with the public key, gets.
 * Defaults: 100 stored rows per table and window for the site, 5 per client, a 600 s window.
 */
let db: PGlite;

beforeAll(async () => {
  db = await openStore(undefined);
}, 60_000);
afterAll(async () => db.close());

// Every test starts from empty tables and no counted rows, with the defaults.
beforeEach(async () => {
  await db.exec(`
    truncate public.support_requests, public.newsletter_subscribers cascade;
    do $$ begin
      if to_regclass('private.quota_counters') is not null then
        delete from private.quota_counters;
        update private.quota_limits set site_max = 100, client_max = 5, window_seconds = 600;
      end if;
    end $$;
  `);
});

const SITE_MAX = 100;
const CLIENT_MAX = 5;

/** A request of its own (own text, own key), so the repeat trigger never merges it with another. */
const request = (n: number | string) => ({
  email: `student${n}@example.edu`,
  subject: `Request ${n}`,
  message: `Text of request ${n}.`,
  type: 'issue',
  submission_key: randomUUID(),
});

/** Inserts as anon, as the store does, counted against `clientKey`; resolves to the error's code, or 'stored'. */
async function send(
  table: 'support_requests' | 'newsletter_subscribers',
  row: Record<string, string>,
  clientKey?: string,
): Promise<string> {
  try {
    await insertAsAnon(db, table, row as never, clientKey);
    return 'stored';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

/** An insert as PostgREST makes it: `request.headers` set for the transaction from the HTTP request. */
async function sendWithHeaders(row: Record<string, string>, headers: Record<string, string>): Promise<string> {
  try {
    await db.transaction(async (tx) => {
      await tx.query(`select set_config('request.headers', $1, true)`, [JSON.stringify(headers)]);
      await tx.exec('set local role anon');
      await tx.query('insert into public.support_requests (email, subject, message, type) values ($1, $2, $3, $4)', [
        row.email,
        row.subject,
        row.message,
        row.type,
      ]);
    });
    return 'stored';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

const count = async (table: string) => (await db.query<{ n: number }>(`select count(*)::int as n from public.${table}`)).rows[0]!.n;

async function sendMany(n: number, make: (index: number) => Promise<string>): Promise<Record<string, number>> {
  const outcomes: Record<string, number> = {};
  for (let index = 0; index < n; index++) {
    const outcome = await make(index);
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
  }
  return outcomes;
}

/** Moves every counted row back in time, as if it had been stored `seconds` earlier. */
const ageCounters = (seconds: number) =>
  db.query('update private.quota_counters set bucket_start = bucket_start - make_interval(secs => $1)', [seconds]);

describe('quotas in the database', () => {
  it('a client stores 5 requests per window; the 6th is refused with PT429, and another client still gets in', async () => {
    expect(await sendMany(CLIENT_MAX + 3, (n) => send('support_requests', request(n), '203.0.113.7'))).toEqual({
      stored: CLIENT_MAX,
      PT429: 3,
    });
    expect(await count('support_requests')).toBe(CLIENT_MAX);
    const refused = await insertAsAnon(db, 'support_requests', request('again'), '203.0.113.7').catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'PT429', message: expect.stringMatching(/client/) });
    expect(await send('support_requests', request('neighbour'), '203.0.113.8')).toBe('stored');
  });

  it('the site stores at most 100 rows per table per window whatever the addresses, and the other table has its own 100', async () => {
    expect(await sendMany(SITE_MAX + 20, (n) => send('support_requests', request(n), `198.51.100.${n}`))).toEqual({
      stored: SITE_MAX,
      PT429: 20,
    });
    const refused = await insertAsAnon(db, 'support_requests', request('late'), '192.0.2.1').catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'PT429', message: expect.stringMatching(/site/) });
    // Without any address (a direct caller that sends none): the ceiling still holds.
    expect(await send('support_requests', request('anonymous'))).toBe('PT429');
    expect(await count('support_requests')).toBe(SITE_MAX);
    expect(await send('newsletter_subscribers', { email: 'reader@example.com' }, '192.0.2.1')).toBe('stored');
  });

  it('without a client key only the site ceiling applies', async () => {
    expect(await sendMany(SITE_MAX + 1, (n) => send('support_requests', request(n)))).toEqual({ stored: SITE_MAX, PT429: 1 });
  });

  it("PostgREST's headers: x-client-address (the site's), else the first x-forwarded-for entry, is the client", async () => {
    const forwarded = await sendMany(CLIENT_MAX + 1, (n) =>
      sendWithHeaders(request(`xff ${n}`), { 'x-forwarded-for': '203.0.113.9, 10.0.0.1' }),
    );
    expect(forwarded).toEqual({ stored: CLIENT_MAX, PT429: 1 });
    // The same first entry behind another proxy is the same client.
    expect(await sendWithHeaders(request('xff other proxy'), { 'x-forwarded-for': '203.0.113.9' })).toBe('PT429');
    // The site's header wins over what the connection says.
    const vouched = await sendMany(CLIENT_MAX + 1, (n) =>
      sendWithHeaders(request(`site ${n}`), { 'x-client-address': '2001:db8:1:2::/64', 'x-forwarded-for': '203.0.113.9' }),
    );
    expect(vouched).toEqual({ stored: CLIENT_MAX, PT429: 1 });
  });

  it('counts a client over the last window, not since a fixed clock boundary: rows 5 minutes old still count, rows a window old do not', async () => {
    expect(await sendMany(CLIENT_MAX, (n) => send('support_requests', request(n), '203.0.113.10'))).toEqual({ stored: CLIENT_MAX });
    await ageCounters(300);
    expect(await send('support_requests', request('after 5 min'), '203.0.113.10')).toBe('PT429');
    await ageCounters(300);
    expect(await send('support_requests', request('after 10 min'), '203.0.113.10')).toBe('stored');
  });

  it('the site ceiling rolls over with the window too', async () => {
    expect(await sendMany(SITE_MAX, (n) => send('newsletter_subscribers', { email: `reader${n}@example.com` }, `198.51.100.${n}`))).toEqual(
      { stored: SITE_MAX },
    );
    expect(await send('newsletter_subscribers', { email: 'one.more@example.com' }, '192.0.2.2')).toBe('PT429');
    await ageCounters(600);
    expect(await send('newsletter_subscribers', { email: 'one.more@example.com' }, '192.0.2.2')).toBe('stored');
  });

  it('deletes counters older than the window: the table stays bounded however many windows pass', async () => {
    for (let round = 0; round < 5; round++) {
      await sendMany(3, (n) => send('support_requests', request(`${round}-${n}`), `203.0.113.${n}`));
      await ageCounters(601);
    }
    await send('support_requests', request('now'), '203.0.113.200');
    const { rows } = await db.query<{ n: number; stale: number }>(
      `select count(*)::int as n, count(*) filter (where bucket_start < now() - interval '600 seconds')::int as stale from private.quota_counters`,
    );
    // The site's and the one client's counter of this window; every older one is gone.
    expect(rows[0]).toEqual({ n: 2, stale: 0 });
  });

  it('a skipped repeat consumes no quota; only stored rows count', async () => {
    const first = request('repeated');
    expect(await send('support_requests', first, '203.0.113.20')).toBe('stored');
    // The same form sent again and again: success each time, nothing stored, nothing counted.
    expect(await sendMany(CLIENT_MAX * 2, () => send('support_requests', first, '203.0.113.20'))).toEqual({ stored: CLIENT_MAX * 2 });
    expect(await sendMany(CLIENT_MAX - 1, (n) => send('support_requests', request(n), '203.0.113.20'))).toEqual({ stored: CLIENT_MAX - 1 });
    expect(await send('support_requests', request('sixth'), '203.0.113.20')).toBe('PT429');
  });

  it('every sign-up takes quota, a known address as a new one: the quota cannot tell who subscribed', async () => {
    expect(await send('newsletter_subscribers', { email: 'known@example.com' }, '203.0.113.21')).toBe('stored');
    // The same address again, in other letters: a success each time, counted, and stored once.
    expect(await sendMany(CLIENT_MAX - 1, () => send('newsletter_subscribers', { email: 'KNOWN@example.com' }, '203.0.113.21'))).toEqual({
      stored: CLIENT_MAX - 1,
    });
    // Past the quota a known address and a new one get the same refusal.
    expect(await send('newsletter_subscribers', { email: 'known@example.com' }, '203.0.113.21')).toBe('PT429');
    expect(await send('newsletter_subscribers', { email: 'new@example.com' }, '203.0.113.21')).toBe('PT429');
    expect(await count('newsletter_subscribers')).toBe(1);
  });

  it('a row the table refuses (a broken check) consumes no quota', async () => {
    expect(
      await sendMany(CLIENT_MAX * 2, (n) => send('support_requests', { ...request(n), subject: 's'.repeat(201) }, '203.0.113.30')),
    ).toEqual({ '23514': CLIENT_MAX * 2 });
    expect(await sendMany(CLIENT_MAX + 1, (n) => send('support_requests', request(n), '203.0.113.30'))).toEqual({
      stored: CLIENT_MAX,
      PT429: 1,
    });
  });

  it('concurrent inserts never exceed the ceiling', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: SITE_MAX * 3 }, (_, n) => send('support_requests', request(n), `198.51.100.${n % 250}`)),
    );
    expect(outcomes.filter((outcome) => outcome === 'stored')).toHaveLength(SITE_MAX);
    expect(outcomes.filter((outcome) => outcome === 'PT429')).toHaveLength(SITE_MAX * 2);
    expect(await count('support_requests')).toBe(SITE_MAX);
  });

  it('an operator changes the limits with one statement', async () => {
    await db.exec("update private.quota_limits set client_max = 2, site_max = 3 where table_name = 'support_requests'");
    expect(await sendMany(3, (n) => send('support_requests', request(n), '203.0.113.40'))).toEqual({ stored: 2, PT429: 1 });
    expect(await sendMany(3, (n) => send('support_requests', request(`b${n}`), '203.0.113.41'))).toEqual({ stored: 1, PT429: 2 });
    // The other table keeps its own limits.
    expect(await sendMany(3, (n) => send('newsletter_subscribers', { email: `r${n}@example.com` }, '203.0.113.40'))).toEqual({ stored: 3 });
  });

  it('the embedded store sets the limits from the app settings when it opens (RATE_LIMIT_*)', async () => {
    const store = await openStore(undefined, { quotas: { clientMax: 2, siteMax: 1_000_000_000, windowSeconds: 60 } });
    try {
      const { rows } = await store.query(
        'select table_name, site_max, client_max, window_seconds from private.quota_limits order by table_name',
      );
      expect(rows).toEqual([
        { table_name: 'newsletter_subscribers', site_max: 1_000_000_000, client_max: 2, window_seconds: 60 },
        { table_name: 'support_requests', site_max: 1_000_000_000, client_max: 2, window_seconds: 60 },
      ]);
    } finally {
      await store.close();
    }
  }, 60_000);

  it('the public role can neither read nor change the counters and limits, nor call the trigger function', async () => {
    for (const sql of [
      'select * from private.quota_counters',
      'delete from private.quota_counters',
      'update private.quota_limits set site_max = 1000000',
      'select private.take_quota()',
    ]) {
      await expect(
        db.transaction(async (tx) => {
          await tx.exec('set local role anon');
          await tx.query(sql);
        }),
      ).rejects.toMatchObject({ code: '42501' });
    }
  });
});
