-- The language a subscriber hears in: that of the page they last signed up on, so their emails are written
-- in it and their links open its pages. A BCP 47 tag as the site writes them (the same CHECK as
-- support_requests.language), or '' for the default language. '' rather than a tag because which language
-- is the default is Site settings' to say, not the database's: the rows from before this, and a sign-up
-- that names no language, follow the default wherever it moves. The sender also writes the default's
-- emails for a tag the site no longer serves. The public key may set it, as it sets the address.

alter table public.newsletter_subscribers
  add column if not exists language text not null default '';

alter table public.newsletter_subscribers
  drop constraint if exists newsletter_subscribers_language_tag;
alter table public.newsletter_subscribers
  add constraint newsletter_subscribers_language_tag
  check (language = '' or (char_length(language) <= 35
    and language ~ '^[a-z]{2,3}(-[A-Z][a-z]{3})?(-([A-Z]{2}|[0-9]{3}))?$'));

grant insert (language) on table public.newsletter_subscribers to anon, authenticated;

-- As in 20261206000100_unsubscribe_token_hashes.sql, and a known address not confirmed that names a
-- language takes it: the page signed up on last is the one its reader chose, and the confirmation, asked
-- for next, goes in it. A confirmed address keeps its own: anyone may enter an address, and only its owner's
-- confirmation may change what that owner is sent.
create or replace function public.upsert_subscriber() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  known uuid;
  known_status text;
begin
  -- Sign-ups of one address take turns, so the second finds the first.
  perform pg_advisory_xact_lock(hashtextextended('newsletter_subscribers ' || lower(new.email), 0));
  perform private.forget_unconfirmed(10);
  select id, status into known, known_status from public.newsletter_subscribers where lower(email) = lower(new.email);
  if found then
    if new.language <> '' and known_status <> 'confirmed' then
      update public.newsletter_subscribers set language = new.language where id = known;
    end if;
    perform private.request_confirmation(known);
    return null;
  end if;
  new.status := 'pending';
  new.confirm_token_hash := null;
  new.confirmation_requested_at := null;
  new.confirmations := 0;
  new.confirmed_at := null;
  new.unsubscribed_at := null;
  return new;
end;
$$;

-- A function's result columns cannot change in place: dropped and made again, with the same grants.
drop function if exists public.mail_claim(text, integer, integer, integer);
create function public.mail_claim(worker text, max_rows integer, lease_seconds integer, max_attempts integer)
  returns table (
    outbox_id bigint,
    kind text,
    attempt integer,
    ref text,
    subscriber_id uuid,
    email text,
    token text,
    unsubscribe_token text,
    summary text,
    language text
  )
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  update private.mail_outbox o
    set status = 'failed', last_error = 'the sender''s lease ran out on its last attempt', lease_until = null, token = null
    where o.status = 'sending' and o.lease_until < now() and o.attempts >= max_attempts;
  return query
  with expired as (
    select o.id, o.next_attempt_at from private.mail_outbox o
      where o.status = 'sending' and o.lease_until < now()
      order by o.lease_until limit max_rows for update skip locked
  ), due as (
    select o.id, o.next_attempt_at from private.mail_outbox o
      where o.status = 'queued' and o.next_attempt_at <= now()
      order by o.next_attempt_at limit max_rows for update skip locked
  ), picked as (
    select p.id from (select * from expired union all select * from due) p order by p.next_attempt_at limit max_rows
  ), claimed as (
    update private.mail_outbox o
      set status = 'sending', attempts = o.attempts + 1, claimed_by = worker,
          lease_until = now() + make_interval(secs => lease_seconds)
      from picked where o.id = picked.id
      returning o.id, o.kind, o.attempts, o.ref, o.subscriber_id, o.token
  )
  select c.id, c.kind, c.attempts, c.ref, s.id, s.email, c.token, private.unsubscribe_link(s.id), a.summary, s.language
    from claimed c
    join public.newsletter_subscribers s on s.id = c.subscriber_id
    left join private.policy_announcements a on c.kind = 'notice' and a.version_date = c.ref;
end;
$$;

revoke all on function public.mail_claim(text, integer, integer, integer) from public, anon, authenticated, service_role;
grant execute on function public.mail_claim(text, integer, integer, integer) to service_role;
