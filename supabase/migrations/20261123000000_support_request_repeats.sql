-- A support request is stored once, however often it arrives: a retry after a timeout (the first
-- attempt may still commit late), a double click, a form resubmitted without JavaScript. The database
-- decides, so several servers and both backends (Supabase, embedded PGlite) agree.
--
-- * submission_key: minted in the visitor's browser for each opened form (never in the shared,
--   prerendered page). The same key with the same text is the same request, whenever it arrives.
-- * With or without a key: the same email, type, subject and message within
--   public.support_request_repeat_window() are the same request.
-- A repeat is skipped by the trigger (the insert succeeds and stores nothing), so the visitor's answer
-- is the same as the first time. Different text, or a different email, is never merged.

alter table public.support_requests
  add column if not exists submission_key uuid,
  add column if not exists content_hash bytea,
  add column if not exists repeat_window bigint;

-- The one place the window is defined.
create or replace function public.support_request_repeat_window() returns interval
  language sql
  immutable
  set search_path = ''
as $$ select interval '10 minutes' $$;

-- Runs as its owner so it can look for the first copy although visitors cannot read the table.
create or replace function public.skip_repeated_support_request() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  window_length constant interval := public.support_request_repeat_window();
begin
  -- jsonb's text form is unambiguous: no separator inside a field can make two requests look alike.
  new.content_hash := sha256(convert_to(jsonb_build_array(new.email, new.type, new.subject, new.message)::text, 'UTF8'));
  -- Numbered windows as long as the repeat window: a copy outside the window of the newest stored
  -- one always lands in a later number, so the unique index below only ever catches a true race.
  new.repeat_window := floor(extract(epoch from new.created_at) / extract(epoch from window_length));
  -- Identical requests arriving together queue here, so the second sees the first once it commits.
  perform pg_advisory_xact_lock(hashtextextended(encode(new.content_hash, 'hex'), 0));
  if exists (
    select 1 from public.support_requests
    where content_hash = new.content_hash
      and (created_at > new.created_at - window_length
        or (new.submission_key is not null and submission_key = new.submission_key))
  ) then
    return null;
  end if;
  return new;
end;
$$;

revoke all on function public.support_request_repeat_window() from public, anon, authenticated;
revoke all on function public.skip_repeated_support_request() from public, anon, authenticated;

drop trigger if exists skip_repeated_support_request on public.support_requests;
create trigger skip_repeated_support_request
  before insert on public.support_requests
  for each row execute function public.skip_repeated_support_request();

-- Last line of defence (a race the lock above did not serialise): the insert fails with 23505, which
-- the site treats as success. Rows from before this migration have no hash and take no part.
create unique index if not exists support_requests_submission_key on public.support_requests (submission_key, content_hash)
  where submission_key is not null;
create unique index if not exists support_requests_repeat_window on public.support_requests (content_hash, repeat_window)
  where content_hash is not null;

-- The public key may now send the key too; still no reads, updates or deletes.
grant insert (email, subject, message, type, submission_key) on table public.support_requests to anon, authenticated;
