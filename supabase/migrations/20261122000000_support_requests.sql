-- Support requests sent from the website's support page.
-- The public (anon) key may insert the four visitor columns and nothing else:
-- no reads, updates or deletes, and row-level security forces status = 'new'.

create table if not exists public.support_requests (
  id uuid primary key default gen_random_uuid(),
  email text not null,
  subject text not null,
  message text not null,
  type text not null,
  status text not null default 'new',
  created_at timestamptz not null default now(),
  constraint support_requests_type_check check (type in ('issue', 'feedback', 'feature')),
  constraint support_requests_email_length check (char_length(email) <= 254),
  constraint support_requests_subject_length check (char_length(subject) <= 200),
  constraint support_requests_message_length check (char_length(message) <= 5000),
  constraint support_requests_email_not_blank check (email ~ '\S'),
  constraint support_requests_subject_not_blank check (subject ~ '\S'),
  constraint support_requests_message_not_blank check (message ~ '\S')
);

create index if not exists support_requests_created_at_idx on public.support_requests (created_at desc);

alter table public.support_requests enable row level security;

revoke all on table public.support_requests from public, anon, authenticated;
grant usage on schema public to anon, authenticated;
grant insert (email, subject, message, type) on table public.support_requests to anon, authenticated;

drop policy if exists "Visitors can send new requests" on public.support_requests;
create policy "Visitors can send new requests"
  on public.support_requests
  for insert
  to anon, authenticated
  with check (status = 'new');
