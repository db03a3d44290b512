-- Unsubscribe links are kept as hashes, as confirmation tokens are: a copy of the table unsubscribes no one.
-- Each email gets a token of its own, made when its row is claimed for sending (private.unsubscribe_link);
-- only the token's hash is stored, with the subscriber it stands for, until the subscriber is forgotten.
-- The tokens already sent keep working: their hashes are taken over before the plain column goes.

create table if not exists private.unsubscribe_tokens (
  token_hash bytea primary key,
  subscriber_id uuid not null references public.newsletter_subscribers (id) on delete cascade
);
create index if not exists unsubscribe_tokens_subscriber on private.unsubscribe_tokens (subscriber_id);
revoke all on table private.unsubscribe_tokens from public, anon, authenticated;

insert into private.unsubscribe_tokens (token_hash, subscriber_id)
  select private.token_hash(s.unsubscribe_token), s.id from public.newsletter_subscribers s
  on conflict do nothing;

-- A new unsubscribe token for `subscriber`: its hash stored, the token returned for one email's links.
create or replace function private.unsubscribe_link(subscriber uuid) returns text
  language plpgsql
  volatile
  set search_path = ''
as $$
declare
  token text := private.new_token();
begin
  insert into private.unsubscribe_tokens (token_hash, subscriber_id) values (private.token_hash(token), subscriber);
  return token;
end;
$$;

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
  return new;
end;
$$;

drop index if exists public.newsletter_subscribers_unsubscribe_token;
alter table public.newsletter_subscribers drop column if exists unsubscribe_token;

create or replace function public.mail_claim(worker text, max_rows integer, lease_seconds integer, max_attempts integer)
  returns table (
    outbox_id bigint,
    kind text,
    attempt integer,
    ref text,
    subscriber_id uuid,
    email text,
    token text,
    unsubscribe_token text,
    summary text
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
  select c.id, c.kind, c.attempts, c.ref, s.id, s.email, c.token, private.unsubscribe_link(s.id), a.summary
    from claimed c
    join public.newsletter_subscribers s on s.id = c.subscriber_id
    left join private.policy_announcements a on c.kind = 'notice' and a.version_date = c.ref;
end;
$$;

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
  select s.* into found_row from public.newsletter_subscribers s
    join private.unsubscribe_tokens t on t.subscriber_id = s.id
    where t.token_hash = private.token_hash(token)
    for update of s;
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

-- The functions replaced keep their grants; the new one is the service's alone.
revoke all on function private.unsubscribe_link(uuid) from public, anon, authenticated;
