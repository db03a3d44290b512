-- A support request's language by the rule of a subscriber's: the tag of the page it was sent from while
-- the site serves that language, else '' for the default language, which Site settings name, not the
-- database. The forms store the same '' in both tables for no language, the default's own tag and a tag
-- the site does not serve. Requests stored before keep the tag they have ("en" from before languages).

alter table public.support_requests
  alter column language set default '';

alter table public.support_requests
  drop constraint if exists support_requests_language_tag;
alter table public.support_requests
  add constraint support_requests_language_tag
  check (language = '' or (char_length(language) <= 35
    and language ~ '^[a-z]{2,3}(-[A-Z][a-z]{3})?(-([A-Z]{2}|[0-9]{3}))?$'));
