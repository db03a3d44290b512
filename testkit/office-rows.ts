/**
 * What a long-lived site has gathered, for the back office's contract test and its bench (bench/back-office.ts):
 * `count` support requests and `count` confirmed subscribers, one announced version, and a sent notice of it
 * for each subscriber. Straight into the tables with their triggers off: no confirmation email is queued and
 * no quota counted. The same SQL on PGlite (db.exec) and on PostgreSQL (the stack's psql session).
 *
 * Only relative imports with real extensions and packages: the bench scripts import this file with plain `node`.
 */

/** The version every seeded subscriber was told of. */
export const OFFICE_VERSION = '2027-01-01';

/** Every this-many-th request comes from a subscriber's address: an erase then has a request to remove too. */
export const SUBSCRIBER_REQUEST_EVERY = 1000;

/** The address of request `n` (1 is the newest) that is not a subscriber's. */
export const requestAddress = (n: number) => `req${n}@example.com`;
/** The address of subscriber `n`; requests n × SUBSCRIBER_REQUEST_EVERY come from it as well. */
export const subscriberAddress = (n: number) => `sub${n}@example.com`;

/**
 * The seeding SQL for `count` rows of each. Request n is `Subject n`, created n seconds ago plus a few
 * microseconds (so cursors must keep them); every 50th is in Spanish, types turn issue, feedback, feature.
 * Every third subscriber is Spanish.
 */
export function officeRowsSql(count: number): string {
  if (!Number.isInteger(count) || count <= 0) throw new Error(`office rows: a positive whole count, got ${count}`);
  return `
    set session_replication_role = replica;
    insert into public.newsletter_subscribers (email, status, language, confirmed_at, created_at)
      select 'sub' || n || '@example.com', 'confirmed', case when n % 3 = 0 then 'es' else '' end, now(), now() - make_interval(secs => n)
      from generate_series(1, ${count}) n;
    insert into public.support_requests (email, subject, message, type, language, created_at)
      select case when n % ${SUBSCRIBER_REQUEST_EVERY} = 0 then 'sub' else 'req' end || n || '@example.com',
        'Subject ' || n, 'Message ' || n, (array['issue', 'feedback', 'feature'])[1 + n % 3],
        case when n % 50 = 0 then 'es' else '' end, now() - make_interval(secs => n) - make_interval(secs => n % 7 / 1000000.0)
      from generate_series(1, ${count}) n;
    insert into private.policy_announcements (version_date, announced_at) values ('${OFFICE_VERSION}', now());
    insert into private.mail_outbox (kind, subscriber_id, ref, status, sent_at)
      select 'notice', id, '${OFFICE_VERSION}', 'sent', now() from public.newsletter_subscribers;
    set session_replication_role = origin;
    analyze;
  `;
}

/** Seeds a store through `run`, which runs a string of SQL statements (PGlite's exec, the stack's query). */
export async function seedOfficeRows(run: (sql: string) => Promise<unknown>, count: number): Promise<void> {
  await run(officeRowsSql(count));
}
