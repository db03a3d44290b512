import { createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { tokenOf, readMail } from '@/testkit/mail';
import { startSupabaseStack, supabaseEnv } from '@/testkit/postgrest-harness';
import { startSmtpServer, type SmtpServer } from '@/testkit/smtp';
import { preparedDataDir } from '@/testkit/store';

/**
 * A parent's erasure while the real sender (lib/mail/sender.ts) is sending them a notice through a real
 * SMTP server that holds the message's DATA, on both stores (the embedded PGlite, and PostgreSQL through
 * PostgREST): the erase waits for the sender's lease rather than removing a message that may still be
 * accepted, so no email to the address is accepted after the erase commits, and the record of notices
 * still counts it. The sender is shown to have looked for work since the erase by a later sign-up's
 * confirmation arriving: it claims due messages oldest first, so a message left behind would go first.
 */
vi.mock('./copy', () => import('@/testkit/seed-mail-copy'));

const WAIT = { timeout: 20_000, interval: 25 };
const ACTOR = 'u1 Ada Editor';
/** Long enough that a held message outlives none of the test's steps; the lease covers it. */
const SMTP_TIMEOUT_SECONDS = 30;
const hmac = (email: string) => createHmac('sha256', 'test key').update(email.toLowerCase()).digest('hex');

type Store = { env: Record<string, string>; close(): Promise<void> };

async function embeddedStore(): Promise<Store> {
  const dataDir = await preparedDataDir(await mkdtemp(path.join(tmpdir(), 'erase-send-')));
  const { closeSharedStore } = await import('@/lib/store/pglite');
  return {
    env: { DATA_DIR: dataDir, NEXT_PUBLIC_SUPABASE_URL: '', NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY: '', NEXT_PUBLIC_SUPABASE_ANON_KEY: '' },
    async close() {
      await closeSharedStore(path.join(dataDir, 'pglite'));
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function hostedStore(): Promise<Store> {
  const [stack, dataDir] = await Promise.all([startSupabaseStack({ database: 'postgres' }), mkdtemp(path.join(tmpdir(), 'erase-send-'))]);
  return {
    env: { ...supabaseEnv(stack), DATA_DIR: dataDir },
    async close() {
      await stack.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

describe.each([
  ['the embedded store (PGlite)', embeddedStore],
  ['PostgreSQL through PostgREST', hostedStore],
])('an erase during a notice’s send, on %s', (_name, open) => {
  let smtp: SmtpServer;
  let store: Store;
  let modules: {
    store: typeof import('@/lib/store/store');
    subscriptions: typeof import('@/lib/store/subscriptions');
    notices: typeof import('@/lib/store/notices');
    office: typeof import('@/lib/store/back-office');
    nudge: typeof import('@/lib/store/nudge');
    sender: typeof import('./sender');
  };
  let markers = 0;

  beforeAll(async () => {
    [smtp, store] = await Promise.all([startSmtpServer(), open()]);
    const env = { ...store.env, SMTP_URL: smtp.url, SMTP_TIMEOUT_SECONDS: String(SMTP_TIMEOUT_SECONDS) };
    for (const [name, value] of Object.entries({ ...env, RATE_LIMIT_MAX: '1000', RATE_LIMIT_SITE_MAX: '1000' })) vi.stubEnv(name, value);
    vi.stubEnv('NEXT_PUBLIC_SITE_URL', 'https://hallway.example');
    vi.resetModules();
    modules = {
      store: await import('@/lib/store/store'),
      subscriptions: await import('@/lib/store/subscriptions'),
      notices: await import('@/lib/store/notices'),
      office: await import('@/lib/store/back-office'),
      nudge: await import('@/lib/store/nudge'),
      sender: await import('./sender'),
    };
    modules.sender.startMailSender();
  }, 120_000);

  afterAll(async () => {
    await modules?.sender.stopMailSender();
    await smtp?.close();
    await store?.close();
    vi.unstubAllEnvs();
  }, 30_000);

  /** What the SMTP server accepted for `email`, in order. */
  const acceptedTo = (email: string) => smtp.accepted.filter((message) => message.envelopeTo.includes(email));

  /** Resolves once the SMTP server has accepted `count` emails to `email`. */
  const arrived = (email: string, count: number) => vi.waitFor(() => expect(acceptedTo(email)).toHaveLength(count), WAIT);

  /** Signs `email` up and follows its confirmation's link. */
  async function confirmedSubscriber(email: string) {
    await modules.store.saveSubscriber({ email });
    modules.nudge.nudgeMailSender();
    await arrived(email, 1);
    const confirmation = await readMail(acceptedTo(email)[0]!.raw);
    expect(await modules.subscriptions.confirmSubscription(tokenOf(confirmation.textLinks[0]!))).toBe('confirmed');
  }

  /** Twice: a new sign-up's confirmation, queued now, is accepted, so the sender has claimed everything due before it. */
  async function senderLookedAgain() {
    for (let round = 0; round < 2; round++) {
      const marker = `marker-${(markers += 1)}@example.com`;
      await modules.store.saveSubscriber({ email: marker });
      modules.nudge.nudgeMailSender();
      await arrived(marker, 1);
    }
  }

  const announce = (date: string) => modules.notices.announcePolicyVersion({ date, summary: null, announcedAt: new Date().toISOString() });
  const version = async (date: string) => (await modules.office.noticeVersions()).find((listed) => listed.date === date);

  it('while the SMTP server holds the notice, the erase is refused as busy; once it is accepted and recorded, the erase goes through and nothing follows', async () => {
    const email = 'held@example.com';
    const date = '2027-03-01';
    await confirmedSubscriber(email);
    smtp.hold();
    try {
      await announce(date);
      await vi.waitFor(() => expect([...smtp.held().values()].map((held) => held.envelopeTo)).toEqual([[email]]), WAIT);
      const during = await modules.office.erasePerson(email, hmac(email), ACTOR);
      expect(during).toEqual({ kind: 'busy', until: expect.stringMatching(/Z$/) });
      expect(Date.parse((during as { until: string }).until)).toBeGreaterThan(Date.now());
    } finally {
      smtp.release();
    }
    await arrived(email, 2);
    await vi.waitFor(async () => expect(await modules.office.wasTold(date, email, hmac(email))).toMatchObject({ told: true }), WAIT);

    const eraseStarted = performance.now();
    expect(await modules.office.erasePerson(email, hmac(email), ACTOR)).toMatchObject({
      kind: 'erased',
      rows: { subscribers: 1, emails: 2, requests: 0, noticesKept: 1 },
    });
    await senderLookedAgain();
    // Both emails (the confirmation, the notice) were accepted before the erase began, none since.
    expect(acceptedTo(email).map((message) => message.at < eraseStarted)).toEqual([true, true]);
    expect(smtp.dropped()).toBe(0);
    expect(await version(date)).toMatchObject({ told: 1, pending: 0, failed: 0, cancelled: 0, firstSent: expect.any(String) });
    expect(await modules.office.wasTold(date, email, hmac(email))).toEqual({ told: true, sentAt: expect.any(String), erased: true });
    expect(await modules.office.personData(email)).toBeNull();
  });

  it('a notice queued but not yet claimed is erased with its subscriber, kept as never sent, and never sent', async () => {
    const email = 'queued@example.com';
    const date = '2027-04-01';
    await confirmedSubscriber(email);
    // No sender runs: the notice stays queued, as it does between two of a sender's looks.
    await modules.sender.stopMailSender();
    await announce(date);
    expect(await version(date)).toMatchObject({ told: 0, pending: 1 });

    expect(await modules.office.erasePerson(email, hmac(email), ACTOR)).toMatchObject({
      kind: 'erased',
      rows: { subscribers: 1, emails: 2, requests: 0, noticesKept: 1 },
    });
    modules.sender.startMailSender();
    await senderLookedAgain();
    expect(acceptedTo(email)).toHaveLength(1);
    // private.notice_erased keeps the notice, never sent and never to be: cancelled.
    expect(await version(date)).toMatchObject({ told: 0, pending: 0, failed: 0, cancelled: 1, firstSent: null, lastSent: null });
    expect(await modules.office.wasTold(date, email, hmac(email))).toEqual({ told: false, sentAt: null, erased: true });
    expect(await modules.office.personData(email)).toBeNull();
  });
});
