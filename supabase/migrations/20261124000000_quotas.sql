-- Quotas in the database. The public key is public by design, so whatever the database accepts from it
-- is what anyone can write, through the site or straight to the data API. The limits are therefore
-- counted here, in the transaction of the insert, so they hold for any number of app servers and for
-- inserts that never pass through the site:
--
-- * the site ceiling: rows stored per table per window, whoever sends them (default 100 per 600 s);
-- * the client quota: rows stored per table per window by one client key (default 5 per 600 s). The
--   key is the address the site vouches for (header x-client-address, which the site sets), else the
--   first X-Forwarded-For entry the data API saw. A direct caller can choose either, so for them the
--   site ceiling is the bound that matters.
--
-- Past a limit the insert fails with SQLSTATE PT429, which PostgREST answers as HTTP 429; the message
-- says which limit ('site quota exceeded' or 'client quota exceeded'). Only rows actually stored count:
-- a skipped repeat or known subscriber, a broken check and a refused insert roll the count back or
-- never reach it.
--
-- The limits are one row per table in private.quota_limits; an operator changes them with one statement:
--   update private.quota_limits set site_max = 500, client_max = 10, window_seconds = 600;
-- (add `where table_name = 'support_requests'` for one table). The embedded store writes the app's
-- RATE_LIMIT_* settings there each time it opens; on hosted Supabase these rows are what count.

-- Not exposed by the data API (only `public` is) and closed to the API roles.
create schema if not exists private;
revoke all on schema private from public, anon, authenticated;

create table if not exists private.quota_limits (
  table_name text primary key,
  site_max integer not null default 100,
  client_max integer not null default 5,
  window_seconds integer not null default 600,
  constraint quota_limits_table check (table_name in ('support_requests', 'newsletter_subscribers')),
  -- 0 closes the table to the public key.
  constraint quota_limits_site_max check (site_max >= 0),
  constraint quota_limits_client_max check (client_max >= 0),
  constraint quota_limits_window check (window_seconds between 1 and 604800)
);
insert into private.quota_limits (table_name) values ('support_requests'), ('newsletter_subscribers') on conflict do nothing;

-- Rows stored per table, scope and tenth of a window. scope '' is the whole site, anything else one
-- client's key. Counting in tenths makes the window slide: a limit holds over any 9/10 of a window, not
-- just between fixed clock boundaries (where a fixed window would let 2 × the limit through at once).
-- `earlier`: what the scope stored in the nine tenths before, fixed when the tenth's row is made (those
-- tenths are closed by then, see the lock below), so an insert updates one row per scope and sums nothing.
create table if not exists private.quota_counters (
  table_name text not null,
  scope text not null,
  bucket_start timestamptz not null,
  stored bigint not null,
  earlier bigint not null,
  primary key (table_name, scope, bucket_start)
);
-- For deleting the tenths that left the window.
create index if not exists quota_counters_age on private.quota_counters (table_name, bucket_start);

revoke all on table private.quota_limits, private.quota_counters from public, anon, authenticated;

-- Runs as its owner, so it can count in tables the public key cannot see.
create or replace function private.take_quota() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  limits private.quota_limits;
  headers json;
  client text;
  bucket_seconds double precision;
  bucket timestamptz;
  since timestamptz;
  site_used bigint;
  client_used bigint;
begin
  select * into limits from private.quota_limits where table_name = tg_table_name;
  if not found then
    -- An operator deleted the row: the defaults, not no limit at all.
    limits := (tg_table_name, 100, 5, 600)::private.quota_limits;
  end if;
  -- PostgREST sets request.headers for each request (lower-case names); the embedded store sets it too.
  headers := nullif(current_setting('request.headers', true), '')::json;
  client := left(coalesce(
    nullif(btrim(headers ->> 'x-client-address'), ''),
    nullif(btrim(split_part(headers ->> 'x-forwarded-for', ',', 1)), '')
  ), 100);

  -- One insert per table at a time counts, from here until its transaction ends: the count it reads
  -- stays true until it commits, so concurrent inserts (any server, any connection) cannot overshoot.
  -- The clock is read once the lock is held, so tenths only ever move forward along the queue, and a
  -- tenth is closed once a later one has begun. This trigger fires after the skip triggers (see below),
  -- so a skipped row never waits here.
  perform pg_advisory_xact_lock(hashtextextended('private.take_quota ' || tg_table_name, 0));
  bucket_seconds := limits.window_seconds / 10.0;
  bucket := to_timestamp(floor(extract(epoch from clock_timestamp()) / bucket_seconds) * bucket_seconds);
  -- This tenth and the nine before it (the half tenth keeps rounding from letting in the eleventh).
  since := bucket - make_interval(secs => limits.window_seconds - bucket_seconds / 2);

  -- Count this row first; a refusal below rolls the count back with the insert. (Two plain updates
  -- cost less than one over both scopes that has to be split up again.)
  update private.quota_counters set stored = stored + 1
    where table_name = tg_table_name and scope = '' and bucket_start = bucket
    returning stored + earlier into site_used;
  if client is not null then
    update private.quota_counters set stored = stored + 1
      where table_name = tg_table_name and scope = client and bucket_start = bucket
      returning stored + earlier into client_used;
  end if;
  -- The first row of a tenth: once per tenth and scope.
  if site_used is null then
    -- Bounded: the tenths that left the window go, once per tenth.
    delete from private.quota_counters where table_name = tg_table_name and bucket_start < since;
    insert into private.quota_counters (table_name, scope, bucket_start, stored, earlier)
      select tg_table_name, '', bucket, 1, coalesce(sum(stored), 0) from private.quota_counters
        where table_name = tg_table_name and scope = '' and bucket_start >= since
      returning stored + earlier into site_used;
  end if;
  if client is not null and client_used is null then
    insert into private.quota_counters (table_name, scope, bucket_start, stored, earlier)
      select tg_table_name, client, bucket, 1, coalesce(sum(stored), 0) from private.quota_counters
        where table_name = tg_table_name and scope = client and bucket_start >= since
      returning stored + earlier into client_used;
  end if;

  if site_used > limits.site_max then
    raise sqlstate 'PT429' using message = 'site quota exceeded', hint = 'Too many rows stored in this table for now; try again later.';
  end if;
  if client_used > limits.client_max then
    raise sqlstate 'PT429' using message = 'client quota exceeded', hint = 'Too many rows stored from this client for now; try again later.';
  end if;
  return new;
end;
$$;

revoke all on function private.take_quota() from public, anon, authenticated;

-- Postgres fires the BEFORE INSERT triggers of a table in name order, and stops at one that returns
-- null. "take_quota" sorts after "skip_known_subscriber" and "skip_repeated_support_request", so a
-- skipped row never reaches it and costs no quota. Keep the name sorting last.
drop trigger if exists take_quota on public.support_requests;
create trigger take_quota
  before insert on public.support_requests
  for each row execute function private.take_quota();

drop trigger if exists take_quota on public.newsletter_subscribers;
create trigger take_quota
  before insert on public.newsletter_subscribers
  for each row execute function private.take_quota();
