-- Addresses from the landing page's "Stay Updated" box. Insert-only for the
-- public key, like support_requests. Subscribing twice succeeds quietly: a
-- trigger skips a known address, so the answer never reveals who subscribed.

create table if not exists public.newsletter_subscribers (
  id uuid primary key default gen_random_uuid(),
  email text not null,
  created_at timestamptz not null default now(),
  constraint newsletter_subscribers_email_length check (char_length(email) <= 254),
  constraint newsletter_subscribers_email_not_blank check (email ~ '\S')
);

create unique index if not exists newsletter_subscribers_email_key on public.newsletter_subscribers (lower(email));

-- Runs as its owner so it can look for the address although visitors cannot read the table.
create or replace function public.skip_known_subscriber() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  if exists (select 1 from public.newsletter_subscribers where lower(email) = lower(new.email)) then
    return null;
  end if;
  return new;
end;
$$;

revoke all on function public.skip_known_subscriber() from public, anon, authenticated;

drop trigger if exists skip_known_subscriber on public.newsletter_subscribers;
create trigger skip_known_subscriber
  before insert on public.newsletter_subscribers
  for each row execute function public.skip_known_subscriber();

alter table public.newsletter_subscribers enable row level security;

revoke all on table public.newsletter_subscribers from public, anon, authenticated;
grant usage on schema public to anon, authenticated;
grant insert (email) on table public.newsletter_subscribers to anon, authenticated;

drop policy if exists "Visitors can subscribe" on public.newsletter_subscribers;
create policy "Visitors can subscribe"
  on public.newsletter_subscribers
  for insert
  to anon, authenticated
  with check (true);
