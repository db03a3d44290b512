-- An address that unsubscribed is written to again far less often than a new one. Anyone may enter any
-- address in the sign-up form, and the sign-up carries no proof that the address's owner asked, so an
-- unsubscribed address gets at most one confirmation per private.resubscribe_interval() (90 days),
-- counted from the later of its unsubscribe and its last confirmation; a new or pending address keeps
-- private.confirmation_interval() (a day). An address that unsubscribed and asked again stays under the
-- long interval until it confirms (confirm_subscription clears unsubscribed_at).

create or replace function private.resubscribe_interval() returns interval
  language sql immutable set search_path = '' as $$ select interval '90 days' $$;

create or replace function private.request_confirmation(subscriber uuid) returns void
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  found_row public.newsletter_subscribers;
  new_token text := private.new_token();
begin
  select * into found_row from public.newsletter_subscribers where id = subscriber for update;
  if not found or found_row.status = 'confirmed'
    or found_row.confirmation_requested_at > now() - private.confirmation_interval()
    or greatest(found_row.unsubscribed_at, found_row.confirmation_requested_at) > now() - private.resubscribe_interval()
       and found_row.unsubscribed_at is not null then
    return;
  end if;
  update public.newsletter_subscribers
    set status = 'pending', confirm_token_hash = private.token_hash(new_token), confirmation_requested_at = now(),
        confirmations = confirmations + 1
    where id = subscriber;
  update private.mail_outbox set status = 'cancelled', token = null
    where subscriber_id = subscriber and kind = 'confirmation' and status in ('queued', 'sending');
  insert into private.mail_outbox (kind, subscriber_id, ref, token)
    values ('confirmation', subscriber, (found_row.confirmations + 1)::text, new_token);
end;
$$;

revoke all on function private.resubscribe_interval(), private.request_confirmation(uuid) from public, anon, authenticated;
