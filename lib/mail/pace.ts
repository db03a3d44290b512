/**
 * How the mail senders pace their work (lib/mail/sender.ts): named here, and none an operator setting.
 * The lease follows from the two deadlines an operator does set (SMTP_TIMEOUT_SECONDS,
 * STORE_TIMEOUT_SECONDS), so that it always covers them.
 */

/** Messages in flight per instance: the SMTP pool's connections. */
export const CONCURRENCY = 8;
/** How often an idle sender looks for work that another instance queued (its own sign-ups and announcements wake it at once). */
export const POLL_MS = 5_000;
/**
 * How often a sender forgets unconfirmed addresses past their week (public.mail_purge) and support requests
 * past the days Site settings keep them (sweep.ts), and how many of each at most each time.
 */
export const SWEEP_MS = 60_000;
export const SWEEP_ROWS = 1_000;

/** Attempts per message before it is marked failed: with the delays below, about two hours of trying. */
export const MAX_ATTEMPTS = 8;
/** The delay after a first failure, doubled after each further one up to the cap. */
export const RETRY_BASE_SECONDS = 60;
export const RETRY_CAP_SECONDS = 3_600;

/** What a lease adds to the deadlines it covers: timers late on a busy event loop. */
export const LEASE_SLACK_MS = 5_000;

/** How long after failed attempt number `attempt` a message is tried again: ±20 %, so messages that failed together do not all return together. */
export function retryDelaySeconds(attempt: number, random: () => number = Math.random): number {
  const delay = Math.min(RETRY_CAP_SECONDS, RETRY_BASE_SECONDS * 2 ** Math.max(0, attempt - 1));
  return Math.round(delay * (0.8 + 0.4 * random()));
}

type Deadlines = { smtpTimeoutMs: number; storeTimeoutMs: number };

/**
 * A claim's lease, in whole seconds: a message's send (the SMTP deadline) and the call that records it
 * (the store's deadline) both end inside it, so no other sender claims a message its sender may still
 * send or record. The lease runs from the claim, so a send also starts no later than the claim's
 * answer plus the store's deadline allows (sendDeadlineMs).
 */
export const leaseSeconds = ({ smtpTimeoutMs, storeTimeoutMs }: Deadlines) =>
  Math.ceil((smtpTimeoutMs + storeTimeoutMs + LEASE_SLACK_MS) / 1000);

/**
 * How long a send may take, started `elapsedMs` after the claim was asked for: the SMTP deadline, or
 * less when the claim's answer came late, so that the send and its record still end inside the lease.
 * Zero or less: too late to send at all; the lease runs out and another sender takes the message.
 */
export function sendDeadlineMs(deadlines: Deadlines, elapsedMs: number): number {
  const leaseMs = leaseSeconds(deadlines) * 1000;
  return Math.floor(Math.min(deadlines.smtpTimeoutMs, leaseMs - LEASE_SLACK_MS - deadlines.storeTimeoutMs - elapsedMs));
}
