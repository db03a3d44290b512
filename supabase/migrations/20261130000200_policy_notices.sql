-- Notices of a material change to the privacy policy, through the outbox
-- (20261130000000_mail_outbox.sql). Service-only: the app calls them with the secret key (Supabase) or
-- as service_role (the embedded store).

-- The first announcement of version_date (summary: what changes, '' for none) queues one notice for every subscriber confirmed now, in the
-- same transaction, and returns how many; announcing it again returns 0 and changes nothing, from any
-- instance, at any time. A version withdrawn and then announced again is active again: its cancelled
-- notices are queued again and subscribers confirmed since are added, still one per subscriber.
create or replace function public.mail_announce(version_date text, summary text, announced_at timestamptz)
  returns integer
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  announced private.policy_announcements;
  requeued integer;
  queued integer;
begin
  insert into private.policy_announcements as a (version_date, summary, announced_at)
    values (mail_announce.version_date, nullif(btrim(mail_announce.summary), ''), mail_announce.announced_at)
    on conflict on constraint policy_announcements_pkey do update
      set withdrawn_at = null, summary = excluded.summary
      where a.withdrawn_at is not null
    returning * into announced;
  if not found then
    return 0;
  end if;
  update private.mail_outbox o set status = 'queued', next_attempt_at = now(), last_error = null
    from public.newsletter_subscribers s
    where o.kind = 'notice' and o.ref = mail_announce.version_date and o.status = 'cancelled'
      and s.id = o.subscriber_id and s.status = 'confirmed';
  get diagnostics requeued = row_count;
  insert into private.mail_outbox (kind, subscriber_id, ref)
    select 'notice', s.id, mail_announce.version_date from public.newsletter_subscribers s where s.status = 'confirmed'
    on conflict on constraint mail_outbox_once do nothing;
  get diagnostics queued = row_count;
  return requeued + queued;
end;
$$;

-- The version of version_date was withdrawn before its date: its notices not sent yet are cancelled
-- (one being sent this moment is recorded as sent if the server takes it); those sent stay recorded.
-- Returns how many were cancelled; a second call cancels nothing more.
create or replace function public.mail_withdraw(version_date text)
  returns integer
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  cancelled integer;
begin
  update private.policy_announcements a set withdrawn_at = now()
    where a.version_date = mail_withdraw.version_date and a.withdrawn_at is null;
  update private.mail_outbox o set status = 'cancelled', lease_until = null
    where o.kind = 'notice' and o.ref = mail_withdraw.version_date and o.status in ('queued', 'sending');
  get diagnostics cancelled = row_count;
  return cancelled;
end;
$$;

-- For legal reviewers (npm run requests): per announced version, how many subscribers were told and
-- when, and what is still pending, failed or cancelled.
create or replace function public.notice_summary()
  returns table (
    version_date text,
    announced_at timestamptz,
    withdrawn_at timestamptz,
    told integer,
    first_sent timestamptz,
    last_sent timestamptz,
    pending integer,
    failed integer,
    cancelled integer
  )
  language sql
  stable
  security definer
  set search_path = ''
as $$
  select a.version_date, a.announced_at, a.withdrawn_at,
    (count(o.id) filter (where o.status = 'sent'))::integer,
    min(o.sent_at), max(o.sent_at),
    (count(o.id) filter (where o.status in ('queued', 'sending')))::integer,
    (count(o.id) filter (where o.status = 'failed'))::integer,
    (count(o.id) filter (where o.status = 'cancelled'))::integer
  from private.policy_announcements a
  left join private.mail_outbox o on o.kind = 'notice' and o.ref = a.version_date
  group by a.version_date, a.announced_at, a.withdrawn_at
  order by a.version_date desc;
$$;

revoke all on function public.mail_announce(text, text, timestamptz), public.mail_withdraw(text), public.notice_summary()
  from public, anon, authenticated, service_role;
grant execute on function public.mail_announce(text, text, timestamptz), public.mail_withdraw(text), public.notice_summary()
  to service_role;
