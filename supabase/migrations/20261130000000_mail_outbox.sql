-- The outbox of every email the site sends: a subscriber's confirmation and each notice of a
-- material change to the privacy policy. A row is written in the transaction that makes the email due (a
-- sign-up, an announcement), so an email is never sent inside a visitor's request and never forgotten
-- by a restart; the senders of every app instance take rows from here (public.mail_claim below).
--
-- * Exactly once per (kind, subscriber, ref): the unique key, so a fan-out run twice, or by two instances
--   at once, cannot double a notice. ref is the version's date (YYYY-MM-DD) for a notice, the
--   confirmation's number for a confirmation.
-- * A sender claims rows with a lease (status 'sending', lease_until): two senders never hold the same
--   row (FOR UPDATE SKIP LOCKED), and a sender that dies leaves its rows to be claimed again once the
--   lease has run out. attempts counts the claims; the same number fences a late failure report.
-- * A failure goes back to 'queued' with next_attempt_at later (the sender's backoff), or to 'failed'
--   once it is permanent or out of attempts; a sent row keeps when it was sent and its Message-ID: the
--   record of every notice.
-- Everything lives in the schema private, which the data API does not expose and the public key cannot
-- reach: the senders go through the service-only functions below.

create table if not exists private.mail_outbox (
  id bigint generated always as identity primary key,
  kind text not null,
  subscriber_id uuid not null references public.newsletter_subscribers (id) on delete cascade,
  ref text not null,
  status text not null default 'queued',
  -- A confirmation's link token, only until it is sent: the subscriber row keeps its hash alone.
  token text,
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  lease_until timestamptz,
  claimed_by text,
  last_error text,
  sent_at timestamptz,
  message_id text,
  smtp_response text,
  created_at timestamptz not null default now(),
  constraint mail_outbox_kind check (kind in ('confirmation', 'notice')),
  constraint mail_outbox_status check (status in ('queued', 'sending', 'sent', 'failed', 'cancelled')),
  constraint mail_outbox_once unique (kind, subscriber_id, ref)
);

-- What a claim looks for: rows due now, and leases that have run out.
create index if not exists mail_outbox_due on private.mail_outbox (next_attempt_at) where status = 'queued';
create index if not exists mail_outbox_leased on private.mail_outbox (lease_until) where status = 'sending';
create index if not exists mail_outbox_subscriber on private.mail_outbox (subscriber_id);
-- The record per version (public.notice_summary).
create index if not exists mail_outbox_ref on private.mail_outbox (ref) where kind = 'notice';

-- Material versions of the privacy policy announced to subscribers, by the day each takes effect.
create table if not exists private.policy_announcements (
  version_date text primary key,
  summary text,
  announced_at timestamptz not null,
  withdrawn_at timestamptz,
  constraint policy_announcements_date check (version_date ~ '^\d{4}-\d{2}-\d{2}$')
);

revoke all on table private.mail_outbox, private.policy_announcements from public, anon, authenticated;

-- Takes up to max_rows due rows for `worker` until lease_seconds from now: rows queued and due, and rows
-- whose sender's lease ran out (it died or hung: they are sent again, under the same Message-ID). A row
-- whose lease ran out on its last attempt is given up instead. Each row comes with what its email needs.
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
  select c.id, c.kind, c.attempts, c.ref, s.id, s.email, c.token, s.unsubscribe_token, a.summary
    from claimed c
    join public.newsletter_subscribers s on s.id = c.subscriber_id
    left join private.policy_announcements a on c.kind = 'notice' and a.version_date = c.ref;
end;
$$;

-- A row's email was accepted by the mail server (or written to its file). Recorded whatever the row's
-- state now: it went out, even if the version was withdrawn or the lease ran out meanwhile. The first
-- time sent stays.
create or replace function public.mail_sent(outbox_id bigint, message_id text, smtp_response text)
  returns void
  language sql
  security definer
  set search_path = ''
as $$
  update private.mail_outbox o
    set status = 'sent', sent_at = coalesce(o.sent_at, now()), message_id = coalesce(o.message_id, mail_sent.message_id),
        smtp_response = coalesce(o.smtp_response, left(mail_sent.smtp_response, 500)), token = null, lease_until = null, last_error = null
    where o.id = mail_sent.outbox_id;
$$;

-- A row's attempt number `attempt` failed: queued again in retry_seconds, or failed for good when
-- `give_up`. Only the sender still holding that attempt may say so: a report from a sender whose lease ran
-- out and whose row was claimed again changes nothing, and neither does one for a row cancelled meanwhile.
create or replace function public.mail_failed(outbox_id bigint, attempt integer, error text, retry_seconds integer, give_up boolean)
  returns void
  language sql
  security definer
  set search_path = ''
as $$
  update private.mail_outbox o
    set status = case when give_up then 'failed' else 'queued' end,
        next_attempt_at = now() + make_interval(secs => retry_seconds),
        token = case when give_up then null else o.token end,
        lease_until = null, last_error = left(error, 500)
    where o.id = outbox_id and o.attempts = attempt and o.status = 'sending';
$$;

-- Seconds until the next row is due or the next lease runs out (0 when one is due now), null when there
-- is nothing to send: how long an idle sender may sleep.
create or replace function public.mail_next_due()
  returns double precision
  language sql
  stable
  security definer
  set search_path = ''
as $$
  -- greatest(0, null) is 0: an outbox with nothing to send must answer null.
  select case when due is null then null else greatest(0, extract(epoch from due - now()))::double precision end
    from (select least(
      (select min(next_attempt_at) from private.mail_outbox where status = 'queued'),
      (select min(lease_until) from private.mail_outbox where status = 'sending')
    ) as due) next;
$$;

grant usage on schema public to service_role;
revoke all on function public.mail_claim(text, integer, integer, integer) from public, anon, authenticated, service_role;
revoke all on function public.mail_sent(bigint, text, text) from public, anon, authenticated, service_role;
revoke all on function public.mail_failed(bigint, integer, text, integer, boolean) from public, anon, authenticated, service_role;
revoke all on function public.mail_next_due() from public, anon, authenticated, service_role;
grant execute on function public.mail_claim(text, integer, integer, integer) to service_role;
grant execute on function public.mail_sent(bigint, text, text) to service_role;
grant execute on function public.mail_failed(bigint, integer, text, integer, boolean) to service_role;
grant execute on function public.mail_next_due() to service_role;
