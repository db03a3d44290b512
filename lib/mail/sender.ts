import 'server-only';

import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

import { mailFrom, smtpTimeoutMs, storeTimeoutMs } from '@/lib/env/server';

import { mailCopy } from './copy';
import { deliver, logFailure } from './delivery';
import { claimMail, secondsUntilDue } from '@/lib/store/outbox';
import { CONCURRENCY, leaseSeconds, MAX_ATTEMPTS, POLL_MS, sendDeadlineMs, SWEEP_MS } from './pace';
import { currentMailSender, setMailSender, type MailSender } from '@/lib/store/nudge';
import { sweepStore } from './sweep';
import { createTransport, type Transport } from './transport';

/**
 * The mail sender: one per server process (instrumentation-node.ts), on either content path, taking
 * messages from the outbox (lib/store/outbox.ts) under a lease, at most CONCURRENCY at a time, and sending
 * each through the transport. It looks for work every POLL_MS, at once when nudged (a sign-up, an
 * announcement in this process), and as soon as a message or a lease falls due; other instances' work
 * reaches it by the poll. Every call out has a deadline inside the lease.
 */

/** Claim only when at least this many places are free: a claim per message would double the store's calls. */
const CLAIM_AT_LEAST = Math.ceil(CONCURRENCY / 2);
/** An idle sender told work is due now (rows another sender is claiming this moment) looks again after this. */
const MIN_IDLE_MS = 200;

/** A sleep that ring() ends early; a ring while awake ends the next sleep at once, so a nudge is never lost. */
function alarm() {
  let stopSleeping: (() => void) | undefined;
  let rung = false;
  return {
    sleep: (ms: number) =>
      new Promise<void>((resolve) => {
        if (rung) return resolve(void (rung = false));
        const timer = setTimeout(() => stopSleeping!(), ms);
        stopSleeping = () => {
          clearTimeout(timer);
          stopSleeping = undefined;
          resolve();
        };
      }),
    ring: () => (stopSleeping ? stopSleeping() : (rung = true)),
  };
}

type Alarm = ReturnType<typeof alarm>;

/** What one sender keeps: who it is to the outbox, its deadlines and lease, and the sends in flight. */
type Sender = {
  worker: string;
  deadlines: { smtpTimeoutMs: number; storeTimeoutMs: number };
  lease: number;
  from: string;
  transport: Transport;
  inFlight: Set<Promise<void>>;
  wake: Alarm;
};

/** Claims up to `free` messages and starts sending each; resolves to how many it got. */
async function claim(sender: Sender, free: number): Promise<number> {
  const { worker, deadlines, lease, from, transport, inFlight, wake } = sender;
  // No words, no claim: a message claimed now could not be written. The default language's words come
  // with the languages served, so each subscriber's below is one the site has pages in.
  await mailCopy();
  const claimedAt = performance.now();
  const mails = await claimMail(worker, free, lease, MAX_ATTEMPTS);
  // Each in its subscriber's language, read once per language and kept; a failed read leaves the batch
  // for the lease to run out, as a failed claim would.
  const copies = await Promise.all(mails.map((mail) => mailCopy(mail.language)));
  for (const [index, mail] of mails.entries()) {
    // Too late to send inside the lease (the claim's answer was slow): left for the lease to run out.
    const deadlineMs = sendDeadlineMs(deadlines, performance.now() - claimedAt);
    if (deadlineMs <= 0) continue;
    const sending = deliver(mail, copies[index]!, from, transport, deadlineMs).finally(() => {
      inFlight.delete(sending);
      if (CONCURRENCY - inFlight.size === CLAIM_AT_LEAST) wake.ring();
    });
    inFlight.add(sending);
  }
  return mails.length;
}

/** How long an idle sender sleeps: until the next message or lease is due, at most POLL_MS. */
async function idleMs(): Promise<number> {
  const due = await secondsUntilDue();
  return due === null ? POLL_MS : Math.min(POLL_MS, Math.max(MIN_IDLE_MS, due * 1000));
}

function createSender(transport: Transport): MailSender {
  const deadlines = { smtpTimeoutMs: smtpTimeoutMs(), storeTimeoutMs: storeTimeoutMs() };
  const sender: Sender = {
    worker: `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`,
    deadlines,
    lease: leaseSeconds(deadlines),
    from: mailFrom(),
    transport,
    inFlight: new Set(),
    wake: alarm(),
  };
  let stopping = false;
  let lastSweep = 0;

  async function step() {
    if (Date.now() - lastSweep >= SWEEP_MS) {
      lastSweep = Date.now();
      await sweepStore();
    }
    const free = CONCURRENCY - sender.inFlight.size;
    if (free < CLAIM_AT_LEAST) return sender.wake.sleep(POLL_MS);
    if ((await claim(sender, free)) < free) await sender.wake.sleep(await idleMs());
  }

  async function run() {
    // The first error of a run of them in full, then the summaries of the failure log.
    let failing = false;
    while (!stopping) {
      try {
        await step();
        failing = false;
      } catch (error) {
        if (!failing)
          console.error(`mail: the sender cannot read the outbox or the emails' words; it tries again every ${POLL_MS / 1000} s`, error);
        else logFailure('the store failed');
        failing = true;
        await sender.wake.sleep(POLL_MS);
      }
    }
    await Promise.allSettled(sender.inFlight);
  }

  const running = run();
  return {
    nudge: sender.wake.ring,
    async stop() {
      stopping = true;
      sender.wake.ring();
      await running;
      transport.close();
    },
  };
}

const globalSender = globalThis as typeof globalThis & { mailSenderOnTerm?: () => void };

/**
 * Starts this process's sender (once, whichever bundle asks). On SIGTERM it claims nothing more and
 * lets the sends in flight finish within their deadlines; what the process's exit cuts short is
 * claimed again by another sender when its lease runs out.
 */
export function startMailSender(): MailSender {
  const started = currentMailSender();
  if (started) return started;
  const sender = createSender(createTransport());
  setMailSender(sender);
  // Next's own handler closes the server and exits; where none does, SIGTERM still ends the process.
  globalSender.mailSenderOnTerm = () => {
    const alone = process.listenerCount('SIGTERM') === 0;
    void sender.stop().finally(() => alone && process.exit(143));
  };
  process.once('SIGTERM', globalSender.mailSenderOnTerm);
  return sender;
}

/** Stops this process's sender and forgets it (tests; a server stops with its process). */
export async function stopMailSender(): Promise<void> {
  const sender = currentMailSender();
  setMailSender(undefined);
  if (globalSender.mailSenderOnTerm) process.off('SIGTERM', globalSender.mailSenderOnTerm);
  await sender?.stop();
}
