-- "Stay updated" becomes a double opt-in subscription: pending → confirmed → unsubscribed.
--
-- * A sign-up (the public key's insert, as before) stores a new address as pending and queues one
--   confirmation email (private.mail_outbox) with a link token; only the token's hash is kept here. An
--   address already known is not stored again: a pending or unsubscribed one gets a new confirmation,
--   at most one per private.confirmation_interval() (a day) however often it is entered; a confirmed one
--   gets nothing. Every sign-up takes the same quota, known address or new (the quota trigger sorts
--   before upsert_subscriber), and succeeds the same, so neither the answer nor the quota tells
--   whether an address is subscribed.
-- * public.confirm_subscription(token): a pending address whose link is younger than
--   private.pending_lifetime() (7 days) becomes confirmed. The link works once: a second click answers
--   'confirmed' and changes nothing, and after an unsubscribe it answers 'used' and never subscribes again.
-- * public.unsubscribe(token): the subscriber's own token (one per subscriber, in every email), for as
--   long as the row exists; its notices not sent yet are cancelled.
-- * Unconfirmed addresses are forgotten after private.pending_lifetime(), without a cron: a few with
--   each sign-up and up to a thousand with each sweep of the senders (public.mail_purge).
-- The public key may call these two functions and insert an address; it reads nothing.

-- 32 random bytes, base64url without padding (43 characters): three random UUIDs (366 random bits from
-- the server's strong random source, gen_random_uuid) hashed together.
create or replace function private.new_token() returns text
  language sql
  volatile
  set search_path = ''
as $$
  select rtrim(translate(encode(sha256(
    uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid())
  ), 'base64'), '+/', '-_'), '=')
$$;

create or replace function private.token_hash(token text) returns bytea
  language sql
  immutable
  set search_path = ''
as $$ select sha256(convert_to(token, 'UTF8')) $$;

-- A token as private.new_token makes them: anything else is refused before a lookup.
create or replace function private.is_token(token text) returns boolean
  language sql
  immutable
  set search_path = ''
as $$ select coalesce(token ~ '^[A-Za-z0-9_-]{43}$', false) $$;

-- The one place each length is defined.
create or replace function private.pending_lifetime() returns interval
  language sql immutable set search_path = '' as $$ select interval '7 days' $$;
create or replace function private.confirmation_interval() returns interval
  language sql immutable set search_path = '' as $$ select interval '24 hours' $$;

alter table public.newsletter_subscribers
  add column if not exists status text not null default 'pending',
  add column if not exists confirm_token_hash bytea,
  add column if not exists confirmation_requested_at timestamptz,
  add column if not exists confirmations integer not null default 0,
  add column if not exists confirmed_at timestamptz,
  add column if not exists unsubscribed_at timestamptz,
  -- Volatile default: every row already there gets its own. New rows get theirs from upsert_subscriber:
  -- a default is computed with the inserting role's rights, and the public key may not call it.
  add column if not exists unsubscribe_token text not null default private.new_token();
alter table public.newsletter_subscribers alter column unsubscribe_token drop default;

alter table public.newsletter_subscribers drop constraint if exists newsletter_subscribers_status;
alter table public.newsletter_subscribers
  add constraint newsletter_subscribers_status check (status in ('pending', 'confirmed', 'unsubscribed'));
create unique index if not exists newsletter_subscribers_unsubscribe_token on public.newsletter_subscribers (unsubscribe_token);
create unique index if not exists newsletter_subscribers_confirm_token on public.newsletter_subscribers (confirm_token_hash)
  where confirm_token_hash is not null;
create index if not exists newsletter_subscribers_pending on public.newsletter_subscribers (confirmation_requested_at)
  where status = 'pending';
create index if not exists newsletter_subscribers_confirmed on public.newsletter_subscribers (id) where status = 'confirmed';

-- Queues a confirmation for a pending or unsubscribed subscriber, unless one was queued within the
-- confirmation interval; a new token replaces the last (whose mail, if not sent yet, is cancelled).
create or replace function private.request_confirmation(subscriber uuid) returns void
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  found_row public.newsletter_subscribers;
  new_token text := private.new_token();
begin
  select * into found_row from public.newsletter_subscribers where id = subscriber for update;
  if not found or found_row.status = 'confirmed'
    or found_row.confirmation_requested_at > now() - private.confirmation_interval() then
    return;
  end if;
  update public.newsletter_subscribers
    set status = 'pending', confirm_token_hash = private.token_hash(new_token), confirmation_requested_at = now(),
        confirmations = confirmations + 1
    where id = subscriber;
  update private.mail_outbox set status = 'cancelled', token = null
    where subscriber_id = subscriber and kind = 'confirmation' and status in ('queued', 'sending');
  insert into private.mail_outbox (kind, subscriber_id, ref, token)
    values ('confirmation', subscriber, (found_row.confirmations + 1)::text, new_token);
end;
$$;

-- Forgets up to max_rows addresses that were not confirmed in time (with their confirmation mail); an
-- unsubscribed address that asked again and did not confirm is unsubscribed again. Returns how many.
create or replace function private.forget_unconfirmed(max_rows integer) returns integer
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  forgotten integer;
  reverted integer;
begin
  delete from public.newsletter_subscribers where id in (
    select id from public.newsletter_subscribers
      where status = 'pending' and confirmed_at is null
        and confirmation_requested_at < now() - private.pending_lifetime()
      limit max_rows for update skip locked);
  get diagnostics forgotten = row_count;
  update public.newsletter_subscribers set status = 'unsubscribed', confirm_token_hash = null where id in (
    select id from public.newsletter_subscribers
      where status = 'pending' and confirmed_at is not null
        and confirmation_requested_at < now() - private.pending_lifetime()
      limit max_rows for update skip locked);
  get diagnostics reverted = row_count;
  return forgotten + reverted;
end;
$$;

-- The sign-up's insert, after the quota has counted it: a known address (any letter case) is not stored
-- again, only asked to confirm (request_confirmation decides whether a mail goes); a new one starts
-- pending, whatever columns the caller tried to set, and the trigger after the insert queues its mail.
create or replace function public.upsert_subscriber() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  known uuid;
begin
  -- Sign-ups of one address take turns, so the second finds the first.
  perform pg_advisory_xact_lock(hashtextextended('newsletter_subscribers ' || lower(new.email), 0));
  perform private.forget_unconfirmed(10);
  select id into known from public.newsletter_subscribers where lower(email) = lower(new.email);
  if found then
    perform private.request_confirmation(known);
    return null;
  end if;
  new.status := 'pending';
  new.confirm_token_hash := null;
  new.confirmation_requested_at := null;
  new.confirmations := 0;
  new.confirmed_at := null;
  new.unsubscribed_at := null;
  new.unsubscribe_token := private.new_token();
  return new;
end;
$$;

create or replace function public.queue_first_confirmation() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  perform private.request_confirmation(new.id);
  return null;
end;
$$;

-- The old trigger skipped a known address before the quota: a known address then cost no quota, and the
-- quota told it from a new one. Postgres fires BEFORE triggers in name order: take_quota, then this.
drop trigger if exists skip_known_subscriber on public.newsletter_subscribers;
drop function if exists public.skip_known_subscriber();
drop trigger if exists upsert_subscriber on public.newsletter_subscribers;
create trigger upsert_subscriber
  before insert on public.newsletter_subscribers
  for each row execute function public.upsert_subscriber();
drop trigger if exists queue_first_confirmation on public.newsletter_subscribers;
create trigger queue_first_confirmation
  after insert on public.newsletter_subscribers
  for each row execute function public.queue_first_confirmation();

-- 'confirmed' (now, or already by this link), 'used' (this link confirmed an address since unsubscribed,
-- or one unsubscribed before confirming), 'expired', or 'invalid' (no such link). Only 'confirmed' from a
-- pending address changes anything.
create or replace function public.confirm_subscription(token text) returns text
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  found_row public.newsletter_subscribers;
begin
  if not private.is_token(token) then
    return 'invalid';
  end if;
  select * into found_row from public.newsletter_subscribers where confirm_token_hash = private.token_hash(token) for update;
  if not found then
    return 'invalid';
  elsif found_row.status = 'confirmed' then
    return 'confirmed';
  elsif found_row.status = 'unsubscribed' then
    return 'used';
  elsif found_row.confirmation_requested_at <= now() - private.pending_lifetime() then
    return 'expired';
  end if;
  update public.newsletter_subscribers set status = 'confirmed', confirmed_at = now(), unsubscribed_at = null where id = found_row.id;
  return 'confirmed';
end;
$$;

-- 'unsubscribed' (now, or already: a second one-click changes nothing) or 'invalid' (no such token).
create or replace function public.unsubscribe(token text) returns text
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  found_row public.newsletter_subscribers;
begin
  if not private.is_token(token) then
    return 'invalid';
  end if;
  select * into found_row from public.newsletter_subscribers where unsubscribe_token = token for update;
  if not found then
    return 'invalid';
  elsif found_row.status <> 'unsubscribed' then
    update public.newsletter_subscribers set status = 'unsubscribed', unsubscribed_at = now() where id = found_row.id;
    update private.mail_outbox set status = 'cancelled', token = null
      where subscriber_id = found_row.id and status in ('queued', 'sending');
  end if;
  return 'unsubscribed';
end;
$$;

-- The senders' sweep: forgets up to max_rows unconfirmed addresses.
create or replace function public.mail_purge(max_rows integer) returns integer
  language sql
  security definer
  set search_path = ''
as $$ select private.forget_unconfirmed(max_rows) $$;

revoke all on function private.new_token(), private.token_hash(text), private.is_token(text), private.pending_lifetime(),
  private.confirmation_interval(), private.request_confirmation(uuid), private.forget_unconfirmed(integer)
  from public, anon, authenticated;
revoke all on function public.upsert_subscriber(), public.queue_first_confirmation() from public, anon, authenticated, service_role;
revoke all on function public.confirm_subscription(text), public.unsubscribe(text), public.mail_purge(integer)
  from public, anon, authenticated, service_role;
grant execute on function public.confirm_subscription(text), public.unsubscribe(text) to anon, authenticated, service_role;
grant execute on function public.mail_purge(integer) to service_role;

-- Addresses stored before double opt-in never confirmed theirs: each is asked to now, and forgotten in a
-- week if it does not.
select private.request_confirmation(id) from public.newsletter_subscribers where confirmation_requested_at is null;
