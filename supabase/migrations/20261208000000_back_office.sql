-- The back office: what the people who run the site may see of what it collected and whom it told, and a
-- parent's request to see or erase their data. Every function here is the service's alone (the secret key;
-- the embedded store's service_role): the server decides who asks (lib/back-office) before it calls one.
--
-- * Support requests are answered or reopened, recording who and when; paged newest first by keyset
--   (created_at, id), never by offset, filtered by type, language and status, searched by an address's prefix.
-- * Erasure keeps the proof, not the person: one transaction removes the subscriber, its unsubscribe tokens,
--   its outbox rows and every request sent from the address. Each notice it was sent (or was to be sent)
--   stays counted in private.notice_erased under an HMAC of the address, which the server computes with a
--   key the database never sees, so "was this address told?" is answered for someone who presents it.
-- * private.erasure_log and private.office_access_log say when, by whom and how many rows, never the address.
-- * Retention: office_sweep_requests deletes answered and unanswered requests past their days, in batches.
-- Times are returned as ISO text with microseconds (private.iso): a keyset cursor must round-trip exactly,
-- and PGlite's JSON would keep milliseconds only.

alter table public.support_requests
  add column if not exists answered_at timestamptz,
  add column if not exists answered_by text;

alter table public.support_requests drop constraint if exists support_requests_status_check;
alter table public.support_requests
  add constraint support_requests_status_check check (status in ('new', 'answered'));
alter table public.support_requests drop constraint if exists support_requests_answered;
alter table public.support_requests
  add constraint support_requests_answered check ((status = 'answered') = (answered_at is not null));
alter table public.support_requests drop constraint if exists support_requests_answered_by_length;
alter table public.support_requests
  add constraint support_requests_answered_by_length check (char_length(answered_by) <= 300);

-- Keyset pages, newest first; the older index on created_at alone is covered by this one. A status or a
-- language that few requests have is paged from an index of its own, not by filtering the whole table.
create index if not exists support_requests_page on public.support_requests (created_at desc, id desc);
create index if not exists support_requests_status_page on public.support_requests (status, created_at desc, id desc);
create index if not exists support_requests_language_page on public.support_requests (language, created_at desc, id desc);
drop index if exists public.support_requests_created_at_idx;
-- An address's requests (equality) and a search by its beginning: byte order, whatever the collation.
create index if not exists support_requests_email on public.support_requests (lower(email) text_pattern_ops);
-- The retention sweep's two kinds of rows.
create index if not exists support_requests_answered_at on public.support_requests (answered_at) where status = 'answered';
create index if not exists support_requests_unanswered on public.support_requests (created_at) where status = 'new';

-- A notice's recipients in order of their outbox row, per version.
create index if not exists mail_outbox_notice_page on private.mail_outbox (ref, id) where kind = 'notice';

-- A notice of an erased subscriber: its outbox row's state when erased, under the address's HMAC.
-- `status`: 'sent', 'pending' (queued or being sent), 'failed' or 'cancelled'.
create table if not exists private.notice_erased (
  outbox_id bigint primary key,
  version_date text not null,
  status text not null,
  sent_at timestamptz,
  address_hmac text not null,
  erased_at timestamptz not null default now(),
  constraint notice_erased_status check (status in ('sent', 'pending', 'failed', 'cancelled')),
  constraint notice_erased_hmac check (address_hmac ~ '^[0-9a-f]{64}$')
);
create index if not exists notice_erased_version on private.notice_erased (version_date, outbox_id);
create index if not exists notice_erased_hmac on private.notice_erased (address_hmac, version_date);

create table if not exists private.erasure_log (
  id bigint generated always as identity primary key,
  at timestamptz not null default now(),
  actor text not null,
  subscribers integer not null,
  tokens integer not null,
  emails integer not null,
  requests integer not null,
  notices_kept integer not null
);

-- Every read of one person's data, export and erase. `subject`: the address's HMAC, never the address.
create table if not exists private.office_access_log (
  id bigint generated always as identity primary key,
  at timestamptz not null default now(),
  actor text not null,
  action text not null,
  subject text,
  rows integer not null,
  constraint office_access_log_action check (action in ('read', 'export', 'erase', 'export-notices')),
  constraint office_access_log_subject check (subject ~ '^[0-9a-f]{64}$'),
  constraint office_access_log_actor check (char_length(actor) between 1 and 300)
);

revoke all on table private.notice_erased, private.erasure_log, private.office_access_log from public, anon, authenticated;

create or replace function private.iso(t timestamptz) returns text
  language sql immutable set search_path = ''
as $$ select to_char(t at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') $$;

-- An outbox row's state as the record of notices names it.
create or replace function private.notice_state(status text) returns text
  language sql immutable set search_path = ''
as $$ select case when status in ('queued', 'sending') then 'pending' else status end $$;

-- The first text after every text that starts with `prefix`, in byte order (text_pattern_ops): its last
-- character's successor. A prefix search is then a range the index answers, with no LIKE to escape.
create or replace function private.prefix_end(prefix text) returns text
  language sql immutable set search_path = ''
as $$
  select left(prefix, -1) || chr(case ascii(right(prefix, 1)) when 55295 then 57344 when 1114111 then 1114111
    else ascii(right(prefix, 1)) + 1 end)
$$;

-- The request row as every office function returns it.
create or replace function private.office_request(r public.support_requests)
  returns table (id uuid, created_at text, type text, email text, subject text, message text, language text,
    status text, answered_at text, answered_by text)
  language sql immutable set search_path = ''
as $$ select r.id, private.iso(r.created_at), r.type, r.email, r.subject, r.message, r.language, r.status,
  private.iso(r.answered_at), r.answered_by $$;

-- A page of requests, newest first, after the row (after_at, after_id) of the page before ('infinity' and
-- the greatest uuid for the first page). '*' is any type, language or status; a non-empty email_prefix
-- keeps the addresses that begin with it, in any letter case.
create or replace function public.office_requests(type_is text, language_is text, status_is text, email_prefix text,
    after_at timestamptz, after_id uuid, max_rows integer)
  returns table (id uuid, created_at text, type text, email text, subject text, message text, language text,
    status text, answered_at text, answered_by text)
  language plpgsql
  stable
  security definer
  set search_path = ''
  -- Planned for each call's filters: which index serves best depends on them (a prefix, a rare language),
  -- and a plan made once for any filter would walk the whole table for a rare one.
  set plan_cache_mode = force_custom_plan
as $$
declare
  prefix text := lower(email_prefix);
begin
  if prefix = '' then
    return query select o.* from (
      select r from public.support_requests r
        where (r.created_at, r.id) < (after_at, after_id)
          and (type_is = '*' or r.type = type_is) and (language_is = '*' or r.language = language_is)
          and (status_is = '*' or r.status = status_is)
        order by r.created_at desc, r.id desc limit least(max_rows, 1000)) page
      cross join lateral private.office_request(page.r) o;
  else
    -- The addresses in the prefix's range first (few), then their order: an index of its own each.
    return query select o.* from (
      select r from public.support_requests r
        where lower(r.email) ~>=~ prefix and lower(r.email) ~<~ private.prefix_end(prefix)
          and (r.created_at, r.id) < (after_at, after_id)
          and (type_is = '*' or r.type = type_is) and (language_is = '*' or r.language = language_is)
          and (status_is = '*' or r.status = status_is)
        order by r.created_at desc, r.id desc limit least(max_rows, 1000)) page
      cross join lateral private.office_request(page.r) o;
  end if;
end;
$$;

-- Every request sent from `address` (any letter case), newest first: what the store holds of that person.
create or replace function public.office_person_requests(address text)
  returns table (id uuid, created_at text, type text, email text, subject text, message text, language text,
    status text, answered_at text, answered_by text)
  language sql
  stable
  security definer
  set search_path = ''
as $$
  select o.* from (
    select r from public.support_requests r where lower(r.email) = lower(address) order by r.created_at desc, r.id desc) page
    cross join lateral private.office_request(page.r) o;
$$;

-- Marks a request answered by `actor` (who answered first, and when, stays) or reopens it; the row after,
-- none when there is no such request.
create or replace function public.office_mark_request(request_id uuid, answered boolean, actor text)
  returns table (id uuid, created_at text, type text, email text, subject text, message text, language text,
    status text, answered_at text, answered_by text)
  language sql
  volatile
  security definer
  set search_path = ''
as $$
  with marked as (
    update public.support_requests r
      set status = case when answered then 'answered' else 'new' end,
          answered_at = case when answered then coalesce(r.answered_at, now()) end,
          answered_by = case when answered then coalesce(r.answered_by, actor) end
      where r.id = request_id
      returning r
  )
  select o.* from marked m cross join lateral private.office_request(m.r) o;
$$;

-- Subscribers by state and language ('' is the default language).
create or replace function public.office_subscriber_counts()
  returns table (status text, language text, count integer)
  language sql
  stable
  security definer
  set search_path = ''
as $$
  select s.status, s.language, count(*)::integer from public.newsletter_subscribers s
    group by s.status, s.language order by s.status, s.language;
$$;

create or replace function public.office_find_subscriber(address text)
  returns table (email text, status text, language text, created_at text, confirmed_at text)
  language sql
  stable
  security definer
  set search_path = ''
as $$
  select s.email, s.status, s.language, private.iso(s.created_at), private.iso(s.confirmed_at)
    from public.newsletter_subscribers s where lower(s.email) = lower(address);
$$;

-- Every email queued for `address`, oldest first: confirmations and notices, with their state.
create or replace function public.office_person_emails(address text)
  returns table (kind text, ref text, status text, sent_at text, created_at text)
  language sql
  stable
  security definer
  set search_path = ''
as $$
  select o.kind, o.ref, o.status, private.iso(o.sent_at), private.iso(o.created_at)
    from public.newsletter_subscribers s join private.mail_outbox o on o.subscriber_id = s.id
    where lower(s.email) = lower(address) order by o.id;
$$;

-- Per announced version: how many were told, pending, failed or cancelled, and the first and last send,
-- counting the notices of subscribers erased since as they stood when erased.
create or replace function public.office_notice_versions()
  returns table (version_date text, announced_at text, withdrawn_at text, told integer, pending integer,
    failed integer, cancelled integer, first_sent text, last_sent text)
  language sql
  stable
  security definer
  set search_path = ''
as $$
  -- Counted per state first: a state's name is mapped once per group, not once per notice.
  with states as (
    select o.ref as version_date, o.status, count(*) as notices, min(o.sent_at) as first_sent, max(o.sent_at) as last_sent
      from private.mail_outbox o where o.kind = 'notice' group by o.ref, o.status
    union all
    select e.version_date, e.status, count(*), min(e.sent_at), max(e.sent_at) from private.notice_erased e group by e.version_date, e.status
  ), counted as (
    select n.version_date, private.notice_state(n.status) as state, n.notices, n.first_sent, n.last_sent from states n
  )
  select a.version_date, private.iso(a.announced_at), private.iso(a.withdrawn_at),
    coalesce(sum(c.notices) filter (where c.state = 'sent'), 0)::integer,
    coalesce(sum(c.notices) filter (where c.state = 'pending'), 0)::integer,
    coalesce(sum(c.notices) filter (where c.state = 'failed'), 0)::integer,
    coalesce(sum(c.notices) filter (where c.state = 'cancelled'), 0)::integer,
    private.iso(min(c.first_sent)), private.iso(max(c.last_sent))
  from private.policy_announcements a
  left join counted c on c.version_date = a.version_date
  group by a.version_date, a.announced_at, a.withdrawn_at
  order by a.version_date desc;
$$;

-- A version's recipients in the order they were queued, after outbox row after_id (0 for the first page).
-- An erased subscriber's notice has no address (null).
create or replace function public.office_notice_recipients(version_date text, after_id bigint, max_rows integer)
  returns table (id bigint, email text, status text, sent_at text)
  language sql
  stable
  security definer
  set search_path = ''
as $$
  select n.id, n.email, n.status, private.iso(n.sent_at) from (
    (select o.id, s.email, private.notice_state(o.status) as status, o.sent_at
      from private.mail_outbox o join public.newsletter_subscribers s on s.id = o.subscriber_id
      where o.kind = 'notice' and o.ref = office_notice_recipients.version_date and o.id > after_id
      order by o.id limit least(max_rows, 1000))
    union all
    (select e.outbox_id, null, e.status, e.sent_at from private.notice_erased e
      where e.version_date = office_notice_recipients.version_date and e.outbox_id > after_id
      order by e.outbox_id limit least(max_rows, 1000))
  ) n order by n.id limit least(max_rows, 1000);
$$;

-- Whether `address` was told about version_date: by its subscriber's notice while it is held, else by the
-- notice kept under address_hmac (the server's HMAC of the address) since it was erased.
create or replace function public.office_was_told(version_date text, address text, address_hmac text)
  returns table (told boolean, sent_at text, erased boolean)
  language sql
  stable
  security definer
  set search_path = ''
as $$
  select coalesce(bool_or(n.status = 'sent'), false), private.iso(min(n.sent_at) filter (where n.status = 'sent')),
    coalesce(bool_or(n.erased), false)
  from (
    select o.status, o.sent_at, false as erased
      from public.newsletter_subscribers s join private.mail_outbox o on o.subscriber_id = s.id
      where lower(s.email) = lower(address) and o.kind = 'notice' and o.ref = office_was_told.version_date
    union all
    select e.status, e.sent_at, true from private.notice_erased e
      where e.address_hmac = office_was_told.address_hmac and e.version_date = office_was_told.version_date
  ) n;
$$;

-- Erases everything held about `address` (any letter case) in one transaction, keeping each of its notices
-- under address_hmac. One row: outcome 'erased' with the rows removed per table, 'nothing-held' (no log row:
-- nothing was erased; the access log records the attempt), or 'busy' with busy_until while a sender holds a
-- live lease on one of its emails: that email may be on its way, and the sender's send ends inside its
-- lease (lib/mail/pace.ts), so an erase that waits for the lease's end is never followed by a send.
create or replace function public.office_erase(address text, address_hmac text, actor text)
  returns table (outcome text, busy_until text, subscribers integer, tokens integer, emails integer, requests integer,
    notices_kept integer)
  language plpgsql
  volatile
  security definer
  set search_path = ''
as $$
#variable_conflict use_column
declare
  subscriber uuid;
  leased timestamptz;
  removed_subscribers integer := 0;
  removed_tokens integer := 0;
  removed_emails integer := 0;
  removed_requests integer := 0;
  kept integer := 0;
begin
  if address_hmac is null or address_hmac !~ '^[0-9a-f]{64}$' then
    raise exception using errcode = '22023', message = 'address_hmac is an HMAC-SHA256 in 64 lower-case hex digits';
  end if;
  -- Sign-ups of this address wait for the erase (upsert_subscriber takes the same lock).
  perform pg_advisory_xact_lock(hashtextextended('newsletter_subscribers ' || lower(address), 0));
  select s.id into subscriber from public.newsletter_subscribers s where lower(s.email) = lower(address) for update;
  if found then
    -- A claim in progress holds these rows until it commits; the next statement then reads its lease.
    perform 1 from private.mail_outbox o where o.subscriber_id = subscriber for update;
    select max(o.lease_until) into leased from private.mail_outbox o
      where o.subscriber_id = subscriber and o.status = 'sending' and o.lease_until > now();
    if leased is not null then
      return query select 'busy'::text, private.iso(leased), 0, 0, 0, 0, 0;
      return;
    end if;
    -- A notice not yet sent never will be: the record says cancelled, not pending for good.
    insert into private.notice_erased (outbox_id, version_date, status, sent_at, address_hmac)
      select o.id, o.ref, case private.notice_state(o.status) when 'pending' then 'cancelled' else private.notice_state(o.status) end,
        o.sent_at, office_erase.address_hmac
        from private.mail_outbox o where o.subscriber_id = subscriber and o.kind = 'notice';
    get diagnostics kept = row_count;
    delete from private.unsubscribe_tokens t where t.subscriber_id = subscriber;
    get diagnostics removed_tokens = row_count;
    delete from private.mail_outbox o where o.subscriber_id = subscriber;
    get diagnostics removed_emails = row_count;
    delete from public.newsletter_subscribers s where s.id = subscriber;
    get diagnostics removed_subscribers = row_count;
  end if;
  delete from public.support_requests r where lower(r.email) = lower(address);
  get diagnostics removed_requests = row_count;
  if removed_subscribers + removed_requests = 0 then
    return query select 'nothing-held'::text, null::text, 0, 0, 0, 0, 0;
    return;
  end if;
  insert into private.erasure_log (actor, subscribers, tokens, emails, requests, notices_kept)
    values (left(office_erase.actor, 300), removed_subscribers, removed_tokens, removed_emails, removed_requests, kept);
  return query select 'erased'::text, null::text, removed_subscribers, removed_tokens, removed_emails, removed_requests, kept;
end;
$$;

create or replace function public.office_log_access(actor text, action text, subject text, rows integer)
  returns void
  language sql
  volatile
  security definer
  set search_path = ''
as $$
  insert into private.office_access_log (actor, action, subject, rows)
    values (office_log_access.actor, office_log_access.action, nullif(office_log_access.subject, ''), office_log_access.rows);
$$;

-- The access log, newest first, before entry before_id (for the first page, any number above every id).
create or replace function public.office_access_log(before_id bigint, max_rows integer)
  returns table (id bigint, at text, actor text, action text, subject text, rows integer)
  language sql
  stable
  security definer
  set search_path = ''
as $$
  select l.id, private.iso(l.at), l.actor, l.action, l.subject, l.rows from private.office_access_log l
    where l.id < before_id order by l.id desc limit least(max_rows, 1000);
$$;

-- Retention: deletes up to max_rows requests answered more than answered_days ago or, never answered,
-- sent more than unanswered_days ago (answered ones first); returns how many. Run again until it returns
-- less than max_rows.
create or replace function public.office_sweep_requests(answered_days integer, unanswered_days integer, max_rows integer)
  returns integer
  language plpgsql
  volatile
  security definer
  set search_path = ''
as $$
declare
  answered integer;
  unanswered integer;
begin
  delete from public.support_requests where id in (
    select r.id from public.support_requests r
      where r.status = 'answered' and r.answered_at < now() - make_interval(days => answered_days)
      order by r.answered_at limit max_rows for update skip locked);
  get diagnostics answered = row_count;
  delete from public.support_requests where id in (
    select r.id from public.support_requests r
      where r.status = 'new' and r.created_at < now() - make_interval(days => unanswered_days)
      order by r.created_at limit max_rows - answered for update skip locked);
  get diagnostics unanswered = row_count;
  return answered + unanswered;
end;
$$;

revoke all on function private.iso(timestamptz), private.notice_state(text), private.prefix_end(text),
  private.office_request(public.support_requests) from public, anon, authenticated;
revoke all on function
  public.office_requests(text, text, text, text, timestamptz, uuid, integer), public.office_person_requests(text),
  public.office_mark_request(uuid, boolean, text), public.office_subscriber_counts(), public.office_find_subscriber(text),
  public.office_person_emails(text), public.office_notice_versions(), public.office_notice_recipients(text, bigint, integer),
  public.office_was_told(text, text, text), public.office_erase(text, text, text), public.office_log_access(text, text, text, integer),
  public.office_access_log(bigint, integer), public.office_sweep_requests(integer, integer, integer)
  from public, anon, authenticated, service_role;
grant execute on function
  public.office_requests(text, text, text, text, timestamptz, uuid, integer), public.office_person_requests(text),
  public.office_mark_request(uuid, boolean, text), public.office_subscriber_counts(), public.office_find_subscriber(text),
  public.office_person_emails(text), public.office_notice_versions(), public.office_notice_recipients(text, bigint, integer),
  public.office_was_told(text, text, text), public.office_erase(text, text, text), public.office_log_access(text, text, text, integer),
  public.office_access_log(bigint, integer), public.office_sweep_requests(integer, integer, integer)
  to service_role;
