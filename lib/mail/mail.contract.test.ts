import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import { formatDate } from '@/lib/shared/view-fields';
import { serveLanguages } from '@/lib/shared/language-gate';
import { toSiteLanguages } from '@/lib/shared/languages';
import { readMail, readMailFiles, tokenOf, type ReadMail } from '@/testkit/mail';
import { SEED, SEED_SUBSCRIPTION } from '@/testkit/seed-copy';
import { startSmtpServer, type SmtpServer } from '@/testkit/smtp';
import { APP_ROOT } from '@/testkit/paths';
import { startSupabaseStack, supabaseEnv, type SupabaseStack } from '@/testkit/postgrest-harness';

import { createSupabase } from '@/lib/store/supabase';

import { nudgeMailSender } from '@/lib/store/nudge';

/**
 * The subscription and the mail sender as the server runs them (lib/mail/sender.ts), with real supabase-js
 * against real PostgREST over the migrations on PostgreSQL (the public key for sign-ups and links, the secret key for
 * the outbox), sending to a real SMTP server (testkit/smtp.ts) read as a mail client reads it (mailparser):
 * what the public key can reach, what a sign-up and an announcement send, what a failure or a server that
 * does not answer does, and the .eml files without SMTP_URL. The emails' words are the seed's (the content
 * read itself is the browser tests'; the embedded store's path too).
 */
vi.mock('./copy', () => import('@/testkit/seed-mail-copy'));

const SITE = 'https://hallway.example';
const SMTP_TIMEOUT_SECONDS = 2;
const WAIT = { timeout: 20_000, interval: 50 };

let smtp: SmtpServer;
let stack: SupabaseStack;
let dataDir: string;
let modules: {
  store: typeof import('@/lib/store/store');
  subscriptions: typeof import('@/lib/store/subscriptions');
  notices: typeof import('@/lib/store/notices');
  sender: typeof import('./sender');
};

/** The modules afresh with `env`: each reads its settings when it starts. */
async function load(env: Record<string, string>) {
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  vi.resetModules();
  modules = {
    store: await import('@/lib/store/store'),
    subscriptions: await import('@/lib/store/subscriptions'),
    notices: await import('@/lib/store/notices'),
    sender: await import('./sender'),
  };
  modules.sender.startMailSender();
}

type OutboxRow = {
  kind: string;
  status: string;
  attempts: number;
  message_id: string | null;
  last_error: string | null;
  retry_in: number | null;
};

/** The outbox as it is now. */
const outbox = () =>
  stack.query<OutboxRow>(
    `select kind, status, attempts, message_id, last_error, extract(epoch from next_attempt_at - now())::int as retry_in
       from private.mail_outbox order by id`,
  );

const delivered = async (count: number): Promise<ReadMail[]> => {
  await vi.waitFor(() => expect(smtp.accepted).toHaveLength(count), { timeout: 20_000, interval: 50 });
  return Promise.all(smtp.accepted.map((message) => readMail(message.raw)));
};

beforeAll(async () => {
  // Debian's PostgreSQL, not PGlite: the test reads the outbox while the sender writes it, and PGlite's one
  // session would run the test's reads inside PostgREST's transactions.
  [smtp, stack] = await Promise.all([startSmtpServer(), startSupabaseStack({ database: 'postgres' })]);
  dataDir = await mkdtemp(path.join(tmpdir(), 'mail-contract-'));
  vi.stubEnv('NEXT_PUBLIC_SITE_URL', SITE);
  // The seed's languages, as the site's settings would have told this process.
  serveLanguages(toSiteLanguages(SEED.settings));
  await load({ ...supabaseEnv(stack), DATA_DIR: dataDir, SMTP_URL: smtp.url, SMTP_TIMEOUT_SECONDS: String(SMTP_TIMEOUT_SECONDS) });
}, 60_000);

afterAll(async () => {
  await modules?.sender.stopMailSender();
  await smtp?.close();
  await stack?.close();
  vi.unstubAllEnvs();
  await rm(dataDir, { recursive: true, force: true });
}, 30_000);

beforeEach(() => void smtp.accepted.splice(0));

/** Signs `email` up and confirms it with the link of the confirmation that arrives. */
async function confirmedSubscriber(email: string) {
  const before = smtp.accepted.length;
  await modules.store.saveSubscriber({ email });
  nudgeMailSender();
  await vi.waitFor(() => expect(smtp.accepted.length).toBe(before + 1), { timeout: 20_000, interval: 50 });
  const confirmation = await readMail(smtp.accepted.at(-1)!.raw);
  expect(await modules.subscriptions.confirmSubscription(tokenOf(confirmation.textLinks[0]!))).toBe('confirmed');
}

describe('the public key on Supabase', () => {
  it('reads no address, token, notice or outbox row, and calls no function of the senders; it may follow the two links', async () => {
    const anon = createSupabase({ url: stack.url, publishableKey: stack.publishableKey });
    const { data, error } = await anon.from('newsletter_subscribers').select('email, confirm_token_hash');
    expect({ data, code: error?.code }).toEqual({ data: null, code: '42501' });
    for (const [fn, args] of [
      ['mail_claim', { worker: 'w', max_rows: 100, lease_seconds: 60, max_attempts: 8 }],
      ['notice_summary', {}],
      ['mail_announce', { version_date: '2027-01-01', summary: '', announced_at: new Date().toISOString() }],
      ['mail_purge', { max_rows: 100 }],
    ] as const) {
      const answer = await anon.rpc(fn, args as never);
      expect({ fn, data: answer.data, code: answer.error?.code }).toEqual({ fn, data: null, code: '42501' });
    }
    const forged = randomBytes(32).toString('base64url');
    expect(await modules.subscriptions.confirmSubscription(forged)).toBe('invalid');
    expect(await modules.subscriptions.unsubscribe(forged)).toBe('invalid');
    // The secret key reaches what the senders need.
    const service = createSupabase({ url: stack.url, publishableKey: stack.publishableKey }, 'secret');
    expect((await service.rpc('notice_summary')).error).toBeNull();
  });
});

describe('the sender over SMTP', () => {
  it("a sign-up's confirmation: text and HTML parts with the same links, RFC 8058 headers, the Message-ID the outbox records", async () => {
    await modules.store.saveSubscriber({ email: 'Reader@Example.com' });
    nudgeMailSender();
    const [mail] = await delivered(1);
    const words = SEED_SUBSCRIPTION;
    // nodemailer writes the domain in lower case; the mailbox as typed.
    expect(mail).toMatchObject({ to: 'Reader@example.com', subject: words.confirmSubject });
    expect(mail!.header('from')).toBe(`${SEED.settings.productName} <no-reply@hallway.example>`);
    expect(mail!.text).toContain(words.confirmText);
    expect(mail!.html).toContain(words.confirmIgnore.replace(/'/g, '&#39;'));
    const [confirmLink, unsubscribeLink] = mail!.textLinks;
    expect(confirmLink).toMatch(new RegExp(`^${SITE}/subscription/confirm\\?token=[\\w-]{43}$`));
    expect(unsubscribeLink).toMatch(new RegExp(`^${SITE}/subscription/unsubscribe\\?token=[\\w-]{43}$`));
    expect(mail!.htmlLinks).toEqual(mail!.textLinks);
    expect(mail!.header('list-unsubscribe')).toBe(`<${SITE}/subscription/unsubscribe/one-click?token=${tokenOf(unsubscribeLink!)}>`);
    expect(mail!.header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(mail!.header('content-language')).toBe(SEED.settings.defaultLanguage);
    expect(mail!.html).toContain(`<html lang="${SEED.settings.defaultLanguage}" dir="ltr">`);
    expect(mail!.messageId).toMatch(/^<confirmation\.1\.[0-9a-f-]{36}@hallway\.example>$/);
    // The server's acceptance comes first, then the record.
    await vi.waitFor(
      async () =>
        expect(await outbox()).toMatchObject([{ kind: 'confirmation', status: 'sent', attempts: 1, message_id: mail!.messageId }]),
      WAIT,
    );
    expect(await modules.subscriptions.confirmSubscription(tokenOf(confirmLink!))).toBe('confirmed');
  });

  it('a notice: one per confirmed subscriber, about that change alone, however often it is announced', async () => {
    for (const name of ['ada', 'grace']) await confirmedSubscriber(`${name}@example.com`);
    smtp.accepted.splice(0);
    const version = { date: '2027-01-15', summary: 'We keep posts for 3 days instead of 7.', announcedAt: new Date().toISOString() };
    await Promise.all([modules.notices.announcePolicyVersion(version), modules.notices.announcePolicyVersion(version)]);
    await modules.notices.announcePolicyVersion(version);
    const mails = await delivered(3);
    expect(mails.map((mail) => mail.to.toLowerCase()).sort()).toEqual(['ada@example.com', 'grace@example.com', 'reader@example.com']);
    const day = formatDate(version.date);
    for (const mail of mails) {
      expect(mail.subject).toBe(SEED_SUBSCRIPTION.noticeSubject.replace('{date}', day));
      expect(mail.text).toContain(SEED_SUBSCRIPTION.noticeText.replace('{date}', day));
      expect(mail.text).toContain(`${SEED_SUBSCRIPTION.noticeSummaryLabel} ${version.summary}`);
      expect(mail.textLinks.slice(0, 2)).toEqual([`${SITE}/privacy/versions/2027-01-15`, `${SITE}/privacy/versions/2027-01-15/changes`]);
      expect(mail.htmlLinks).toEqual(mail.textLinks);
      expect(mail.messageId).toMatch(/^<notice\.2027-01-15\.[0-9a-f-]{36}@hallway\.example>$/);
    }
    await vi.waitFor(
      async () =>
        expect((await outbox()).filter((row) => row.kind === 'notice').map((row) => row.status)).toEqual(['sent', 'sent', 'sent']),
      WAIT,
    );
  });

  it('a refusal for now (4xx) is tried again after the backoff, one for good (5xx) never: nothing is sent twice', async () => {
    await modules.notices.announcePolicyVersion({ date: '2027-02-01', summary: null, announcedAt: new Date().toISOString() });
    smtp.refuse(421, 1);
    // Two of the three sent, and the third's failure recorded.
    const refused = await vi.waitFor(async () => {
      const rows = await outbox();
      expect(rows.filter((row) => row.status === 'sent' && row.kind === 'notice')).toHaveLength(5);
      const queued = rows.find((row) => row.status === 'queued');
      expect(queued).toBeDefined();
      return queued!;
    }, WAIT);
    expect(refused).toMatchObject({ kind: 'notice', attempts: 1, last_error: expect.stringContaining('421') });
    // The first retry comes a minute later, ±20 %.
    expect(refused.retry_in).toBeGreaterThanOrEqual(45);
    expect(refused.retry_in).toBeLessThanOrEqual(72);
    expect(smtp.accepted).toHaveLength(2);

    smtp.refuse(550, 1);
    await modules.store.saveSubscriber({ email: 'refused@example.com' });
    nudgeMailSender();
    await vi.waitFor(
      async () => expect((await outbox()).at(-1)).toMatchObject({ kind: 'confirmation', status: 'failed', attempts: 1 }),
      WAIT,
    );
    expect(smtp.accepted).toHaveLength(2);
  });

  it('a message the server does not accept within SMTP_TIMEOUT_SECONDS is given up on its connection, so the server drops it, and is retried later', async () => {
    smtp.hold();
    try {
      await modules.store.saveSubscriber({ email: 'slow@example.com' });
      nudgeMailSender();
      await vi.waitFor(() => expect(smtp.dropped()).toBe(1), { timeout: SMTP_TIMEOUT_SECONDS * 1000 * 5 });
    } finally {
      smtp.release();
    }
    expect(smtp.accepted).toEqual([]);
    await vi.waitFor(
      async () =>
        expect((await outbox()).at(-1)).toMatchObject({
          kind: 'confirmation',
          status: 'queued',
          attempts: 1,
          last_error: expect.stringContaining('not accepted in time'),
        }),
      WAIT,
    );
  });
});

describe('the sender in the subscriber’s language', () => {
  it("a sign-up from a language's page gets links to its pages; from a language no longer served, the default's", async () => {
    await modules.store.saveSubscriber({ email: 'lectora@example.com', language: 'es' });
    await modules.store.saveSubscriber({ email: 'lecteur@example.com', language: 'fr' });
    nudgeMailSender();
    const to = async (email: string) => {
      const found = await vi.waitFor(async () => {
        const mails = await Promise.all(smtp.accepted.map((message) => readMail(message.raw)));
        const mail = mails.find((read) => read.to === email);
        expect(mail).toBeDefined();
        return mail!;
      }, WAIT);
      return found;
    };
    const spanish = await to('lectora@example.com');
    const [confirmLink, unsubscribeLink] = spanish.textLinks;
    expect(confirmLink).toMatch(new RegExp(`^${SITE}/es/subscription/confirm\\?token=[\\w-]{43}$`));
    expect(unsubscribeLink).toMatch(new RegExp(`^${SITE}/es/subscription/unsubscribe\\?token=[\\w-]{43}$`));
    expect(spanish.htmlLinks).toEqual(spanish.textLinks);
    expect(spanish.header('list-unsubscribe')).toBe(`<${SITE}/es/subscription/unsubscribe/one-click?token=${tokenOf(unsubscribeLink!)}>`);
    expect(spanish.header('content-language')).toBe('es');
    expect(spanish.html).toContain('<html lang="es" dir="ltr">');
    expect(await modules.subscriptions.confirmSubscription(tokenOf(confirmLink!))).toBe('confirmed');
    const french = await to('lecteur@example.com');
    expect(french.textLinks[0]).toMatch(new RegExp(`^${SITE}/subscription/confirm\\?token=`));
    expect(french.header('content-language')).toBe(SEED.settings.defaultLanguage);
  });
});

describe('npm run requests with the hosted settings', () => {
  it('prints, per version, how many subscribers were told, through the service-only function', async () => {
    // Not spawnSync: the stand-in's database answers from this process.
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(APP_ROOT, 'scripts', 'requests.ts')], {
      cwd: APP_ROOT,
      env: { ...process.env, NEXT_PUBLIC_SUPABASE_URL: stack.url, SUPABASE_SECRET_KEY: stack.secretKey },
    });
    const cells = stdout
      .split('\n')
      .find((line) => line.includes("'2027-01-15'"))
      ?.split('│')
      .map((cell) => cell.trim());
    // index, version, announced, withdrawn, told, first sent, last sent, pending, failed, cancelled
    expect(cells?.slice(2, 11)).toEqual([
      "'2027-01-15'",
      expect.any(String),
      "'–'",
      '3',
      expect.any(String),
      expect.any(String),
      '0',
      '0',
      '0',
    ]);
  });
});

describe('the sender without SMTP_URL', () => {
  it('writes each email as an .eml file under DATA_DIR/mail that a mail client reads, named by its Message-ID', async () => {
    await modules.sender.stopMailSender();
    await load({ SMTP_URL: '' });
    await modules.store.saveSubscriber({ email: 'files@example.com' });
    nudgeMailSender();
    const mail = await vi.waitFor(
      async () => {
        const found = (await readMailFiles(dataDir)).find((read) => read.to === 'files@example.com');
        expect(found).toBeDefined();
        return found!;
      },
      { timeout: 20_000, interval: 100 },
    );
    expect(mail.subject).toBe(SEED_SUBSCRIPTION.confirmSubject);
    expect(mail.textLinks).toEqual(mail.htmlLinks);
    expect(mail.header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
  });
});
