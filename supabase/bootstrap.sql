-- What a Supabase database has before any migration: the API roles. Applied to
-- the embedded PGlite store only, so the same grants and policies decide there.
do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'anon') then
    create role anon nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'service_role') then
    create role service_role nologin noinherit bypassrls;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticator') then
    create role authenticator login noinherit;
  end if;
end
$$;

grant anon, authenticated, service_role to authenticator;

create table if not exists public.schema_migrations (
  version text primary key,
  applied_at timestamptz not null default now()
);
revoke all on table public.schema_migrations from public;
