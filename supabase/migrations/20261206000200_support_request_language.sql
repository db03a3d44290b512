-- The language of the page a support request was sent from, so the team can answer in it. A BCP 47 tag
-- as the site writes them ("en", "es", "es-MX", "zh-Hant"); requests sent before this have "en", the one
-- language the site had then. The public key may set it, as it sets the four visitor columns.

alter table public.support_requests
  add column if not exists language text not null default 'en';

alter table public.support_requests
  drop constraint if exists support_requests_language_tag;
alter table public.support_requests
  add constraint support_requests_language_tag
  check (char_length(language) <= 35 and language ~ '^[a-z]{2,3}(-[A-Z][a-z]{3})?(-([A-Z]{2}|[0-9]{3}))?$');

grant insert (language) on table public.support_requests to anon, authenticated;
