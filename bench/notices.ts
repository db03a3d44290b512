/**
 * `notices` — NOTICES_SUBSCRIBERS (default 10,000) confirmed subscribers, one material version of
 * the privacy policy announced to them (public.mail_announce, as lib/store/notices.ts calls it), and the
 * notices sent by NOTICES_INSTANCES (default 2) instances of the current build (serve:prod's stack behind
 * nginx, a private copy of the standalone folder) sharing the Supabase stand-in over Debian's PostgreSQL,
 * to the test SMTP server (testkit/smtp.ts). Reports the time from the announcement to the last notice the
 * server accepted, the rate, each instance's share, and whether every subscriber got exactly one.
 * Not in the standard set: it starts PostgreSQL, PostgREST, nginx and two servers, and sends 10,000 emails.
 */
import path from 'node:path';

import { addDays, dayIn } from '../lib/shared/site-time.ts';
import { addConfirmedSubscribers, startSupabaseStack, supabaseEnv, type SupabaseStack } from '../testkit/postgrest-harness.ts';
import { postForm } from '../testkit/forms.ts';
import { sleep } from '../testkit/processes.ts';
import { startSmtpServer, type SmtpServer } from '../testkit/smtp.ts';
import type { Stack } from '../testkit/stack.ts';
import { privateSite, privateStack } from './lib/servers.ts';
import { withTempDir } from './lib/temp-dir.ts';
import { envInt, round, type Report } from './report.ts';

const log = (line: string) => process.stderr.write(`[notices] ${line}\n`);
/** A version two months after the day the bench runs, as a material change's day would be. */
const VERSION = addDays(dayIn(Date.now(), 'UTC'), 60);
const CLIENT = 'smtp-server (testkit/smtp.ts): the messages it accepted, by Message-ID and recipient';

/** The subscriber a notice of VERSION goes to, by its Message-ID; null for any other message. */
const NOTICE = new RegExp(`^Message-ID:\\s*<notice\\.${VERSION}\\.([0-9a-f-]{36})@`, 'mi');

/** Waits until `count` notices are accepted (or nothing new arrives for a minute); returns when the last one came. */
async function lastNotice(smtp: SmtpServer, count: number): Promise<{ at: number; notices: string[] }> {
  let seen = 0;
  let lastChange = performance.now();
  for (;;) {
    const notices = smtp.accepted.flatMap((message) => NOTICE.exec(message.raw.toString('latin1'))?.[1] ?? []);
    if (notices.length >= count) return { at: Math.max(...smtp.accepted.map((message) => message.at)), notices };
    if (notices.length !== seen) [seen, lastChange] = [notices.length, performance.now()];
    if (performance.now() - lastChange > 60_000) throw new Error(`${seen} of ${count} notices after a minute without a new one`);
    await sleep(200);
  }
}

async function send(stack: Stack, supabase: SupabaseStack, smtp: SmtpServer, subscribers: number) {
  const started = performance.now();
  const announced = await supabase.query<{ queued: number }>(`select public.mail_announce($1, 'What changes.', now()) as queued`, [
    VERSION,
  ]);
  log(`announced to ${announced[0]?.queued} subscribers`);
  // A sign-up on each instance wakes its sender at once, as an announcement wakes the instance it is made on.
  for (const [index, app] of stack.apps.entries()) await postForm(app.origin, 'subscribe', { email: `wake${index}@example.com` });
  const { at, notices } = await lastNotice(smtp, subscribers);
  const shares = await supabase.query<{ worker: string; n: number }>(
    `select split_part(claimed_by, '/', 2) as worker, count(*)::int as n from private.mail_outbox
      where kind = 'notice' and ref = $1 group by 1 order by 1`,
    [VERSION],
  );
  const perSubscriber = new Map<string, number>();
  for (const id of notices) perSubscriber.set(id, (perSubscriber.get(id) ?? 0) + 1);
  const doubled = [...perSubscriber.values()].filter((n) => n > 1).length;
  const missing = subscribers - perSubscriber.size;
  return { seconds: (at - started) / 1000, notices: notices.length, doubled, missing, shares };
}

export async function measure(): Promise<Report> {
  const subscribers = envInt('NOTICES_SUBSCRIBERS', 10_000);
  const instances = envInt('NOTICES_INSTANCES', 2);
  const result = await withTempDir('notices', async (dir) => {
    const smtp = await startSmtpServer();
    const supabase = await startSupabaseStack({ database: 'postgres' });
    try {
      await addConfirmedSubscribers(supabase, subscribers, 'reader');
      const site = await privateSite(dir, log);
      const env = { ...process.env, ...site.env, ...supabaseEnv(supabase), DATA_DIR: path.join(dir, 'data'), SMTP_URL: smtp.url };
      const stack = await privateStack(dir, site, instances, env, log);
      try {
        return await send(stack, supabase, smtp, subscribers);
      } finally {
        await stack.stop();
      }
    } finally {
      await supabase.close();
      await smtp.close();
    }
  });
  const exactlyOnce = result.doubled === 0 && result.missing === 0 && result.notices === subscribers;
  const shares = result.shares.map(({ n }) => n).join(' + ');
  return {
    rows: [
      {
        measure: `notices to ${subscribers.toLocaleString('en-US')} confirmed subscribers, ${instances} instances`,
        client: CLIENT,
        result: `${round(result.seconds)} s from the announcement to the last accepted, ${Math.round(subscribers / result.seconds)} per second (${shares} by instance)`,
      },
      {
        measure: 'every subscriber told exactly once',
        client: CLIENT,
        result: `${result.notices} notices, ${result.missing} subscribers without one, ${result.doubled} with more than one`,
        target: 'each subscriber exactly one',
        met: exactlyOnce,
      },
    ],
    details: { subscribers, instances, result },
    problems: exactlyOnce ? [] : [`notices not exactly once: ${JSON.stringify(result)}`],
  };
}
