'use server';

import { headers } from 'next/headers';

import { rateLimit } from '@/lib/env/server';

import { GENERIC_FAILURE, RATE_LIMITED, type FormState, type RequestFields, type SubscribeFields } from './form-state';
import { createRateLimiter } from './rate-limit';
import { saveSubscriber, saveSupportRequest, StoreError } from './store';
import { isBot, submissionKey, validateSubscriber, validateSupportRequest } from './validation';

const globalForLimiter = globalThis as typeof globalThis & { supportLimiter?: ReturnType<typeof createRateLimiter> };

function limiter() {
  const { max, windowSeconds } = rateLimit();
  return (globalForLimiter.supportLimiter ??= createRateLimiter(max, windowSeconds * 1000));
}

/**
 * The address the nearest proxy saw: the last x-forwarded-for entry. Earlier
 * entries come from the client and could be forged to dodge the rate limit.
 */
async function clientAddress(): Promise<string> {
  const list = await headers();
  return list.get('x-forwarded-for')?.split(',').at(-1)?.trim() || list.get('x-real-ip') || 'unknown';
}

function text(formData: FormData, name: string): string {
  const value = formData.get(name);
  return typeof value === 'string' ? value : '';
}

/** Runs a store write and turns every failure into a message a visitor can act on. */
async function store<Fields>(fields: Fields, write: () => Promise<void>): Promise<FormState<Fields>> {
  if (!limiter().take(await clientAddress())) return { status: 'error', message: RATE_LIMITED, fields };
  try {
    await write();
    return { status: 'success' };
  } catch (error) {
    if (!(error instanceof StoreError)) console.error('support store failed unexpectedly', error);
    return { status: 'error', message: error instanceof StoreError ? error.message : GENERIC_FAILURE, fields };
  }
}

export async function submitSupportRequest(
  _previous: FormState<RequestFields>,
  formData: FormData,
): Promise<FormState<RequestFields>> {
  const fields = { email: text(formData, 'email'), subject: text(formData, 'subject'), message: text(formData, 'message') };
  // A filled honeypot is a bot: it gets the answer it hopes for and nothing is stored.
  if (isBot(formData)) return { status: 'success' };
  const request = validateSupportRequest(formData);
  if (!request.ok) return { status: 'error', message: request.message, fields };
  return store(fields, () => saveSupportRequest({ ...request.value, submissionKey: submissionKey(formData) }));
}

export async function subscribe(_previous: FormState<SubscribeFields>, formData: FormData): Promise<FormState<SubscribeFields>> {
  const fields = { email: text(formData, 'email') };
  if (isBot(formData)) return { status: 'success' };
  const subscriber = validateSubscriber(formData);
  if (!subscriber.ok) return { status: 'error', message: subscriber.message, fields };
  return store(fields, () => saveSubscriber(subscriber.value.email));
}
