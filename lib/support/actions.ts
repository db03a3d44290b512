'use server';

import { headers } from 'next/headers';

import { rateLimit } from '@/lib/env/server';
import { nudgeMailSender } from '@/lib/store/nudge';

import { quotaKey } from '@/lib/http/client-address';

import { StoreError } from '@/lib/store/errors';
import { requestFields, subscribeFields, type FormState, type RequestFields, type SubscribeFields } from '@/lib/forms/form-state';
import { FAILED } from '@/lib/forms/messages';
import { createCeiling, createRateLimiter } from './rate-limit';
import { saveSubscriber, saveSupportRequest } from '@/lib/store/store';
import { formLanguage, isBot, submissionKey, validateSubscriber, validateSupportRequest } from '@/lib/forms/validation';

type Limits = { perAddress: ReturnType<typeof createRateLimiter>; site: ReturnType<typeof createCeiling> };

// One set per process, whichever bundle loads this module.
const globalForLimits = globalThis as typeof globalThis & { supportLimits?: Limits };

function limits(): Limits {
  if (globalForLimits.supportLimits) return globalForLimits.supportLimits;
  const { max, siteMax, windowSeconds } = rateLimit();
  return (globalForLimits.supportLimits = {
    perAddress: createRateLimiter(max, windowSeconds * 1000),
    site: createCeiling(siteMax, windowSeconds * 1000),
  });
}

/**
 * The client's quota key. By now X-Forwarded-For holds the one address the server vouches for
 * (installTrustProxy in instrumentation.ts); on a platform that sets it itself, its last entry.
 */
async function clientKey(): Promise<string> {
  return quotaKey((await headers()).get('x-forwarded-for')?.split(',').at(-1)?.trim() || 'unknown');
}

/** React decodes an action's arguments from the request, so a crafted call can pass anything as the form. */
const isForm = (value: unknown): value is FormData => value instanceof FormData;

/**
 * Runs a store write and turns every failure into a message (a code) a visitor can act on.
 *
 * The quotas that hold are the database's, counted with the insert (supabase/migrations/*_quotas.sql),
 * for every server of the site and anyone with the public key; `write` passes the client's key along.
 * The in-process limits stay in front as a cheap first check: a flood from one address, or past the
 * ceiling as far as this server has seen, is refused here without a database round trip or a wait in
 * the database's per-table quota queue. They see only this server's writes (and count requests and
 * sign-ups together), so the database refuses what gets past them; a visitor reads the same message
 * from either, with what they typed kept.
 */
async function store<Fields>(fields: Fields, write: (clientKey: string) => Promise<void>): Promise<FormState<Fields>> {
  const { perAddress, site } = limits();
  // The site-wide place first: when the site is full, no address is remembered for the attempt.
  const giveBack = site.reserve();
  if (!giveBack) return { status: 'error', message: { code: 'siteBusy' }, fields };
  const key = await clientKey();
  if (!perAddress.take(key)) {
    giveBack();
    return { status: 'error', message: { code: 'rateLimited' }, fields };
  }
  try {
    await write(key);
    return { status: 'success' };
  } catch (error) {
    giveBack();
    if (!(error instanceof StoreError)) console.error('support store failed unexpectedly', error);
    return { status: 'error', message: error instanceof StoreError ? error.visitorMessage : FAILED, fields };
  }
}

export async function submitSupportRequest(_previous: FormState<RequestFields>, formData: FormData): Promise<FormState<RequestFields>> {
  if (!isForm(formData)) return { status: 'error', message: { code: 'unreadable' }, fields: { email: '', subject: '', message: '' } };
  const fields = requestFields(formData);
  // A filled honeypot is a bot: it gets the answer it hopes for and nothing is stored.
  if (isBot(formData)) return { status: 'success' };
  const request = validateSupportRequest(formData);
  if (!request.ok) return { status: 'error', message: request.message, fields };
  return store(fields, (clientKey) =>
    saveSupportRequest({ ...request.value, language: formLanguage(formData), submissionKey: submissionKey(formData), clientKey }),
  );
}

export async function subscribe(_previous: FormState<SubscribeFields>, formData: FormData): Promise<FormState<SubscribeFields>> {
  if (!isForm(formData)) return { status: 'error', message: { code: 'unreadable' }, fields: { email: '' } };
  const fields = subscribeFields(formData);
  if (isBot(formData)) return { status: 'success' };
  const subscriber = validateSubscriber(formData);
  if (!subscriber.ok) return { status: 'error', message: subscriber.message, fields };
  const state = await store(fields, (clientKey) => saveSubscriber({ ...subscriber.value, language: formLanguage(formData), clientKey }));
  // Whether a confirmation was queued, only the database knows: the sender looks either way, after the answer.
  if (state.status === 'success') nudgeMailSender();
  return state;
}
