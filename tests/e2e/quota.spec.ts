import { REQUEST_SENT, seedMessage } from '../../testkit/seed-copy';

const RATE_LIMITED = seedMessage({ code: 'rateLimited' });
const SITE_BUSY = seedMessage({ code: 'siteBusy' });

import { E2E_SERVERS } from '../../testkit/e2e-servers';
import { readStore } from '../../testkit/store.ts';
import { postForm, type FormAnswer } from '../../testkit/forms.ts';
import { expect, test } from '../../testkit/test.ts';

/**
 * The submission quotas on the strict server (3 per client address, 10 for the whole site, per window;
 * no trusted proxy), sent as a hostile client would: forged X-Forwarded-For and X-Real-IP headers from one
 * machine, then many real client addresses (distinct loopback sources). Serial: the cases share the
 * site-wide window.
 */
const { url, dataDir, env } = E2E_SERVERS.strict;
const PER_ADDRESS = Number(env.RATE_LIMIT_MAX);
const SITE = Number(env.RATE_LIMIT_SITE_MAX);
const RUN = Date.now().toString(36);

const storedRows = async () =>
  (
    await readStore<{ n: number }>(
      dataDir,
      'select (select count(*) from support_requests)::int + (select count(*) from newsletter_subscribers)::int as n',
    )
  )[0]?.n ?? 0;

const request = (subject: string) => ({ email: 'quota@example.com', subject, message: 'Counting toward the quota.' });
const accepted = (answers: FormAnswer[]) => answers.filter((answer) => answer.statusText === REQUEST_SENT).length;

test.describe.configure({ mode: 'serial' });

test.describe('submission quotas hold whatever the headers say', () => {
  test('50 forged X-Forwarded-For addresses × 3 posts from one client store only its own quota', async () => {
    test.setTimeout(120_000);
    const before = await storedRows();
    const answers: FormAnswer[] = [];
    for (let post = 0; post < 3; post++) {
      for (let forged = 1; forged <= 50; forged++) {
        const address = `198.51.100.${forged}`;
        answers.push(
          await postForm(url, 'support', request(`Forged ${RUN} ${forged}/${post}`), {
            headers: { 'x-forwarded-for': address, 'x-real-ip': address },
          }),
        );
      }
    }
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(accepted(answers)).toBe(PER_ADDRESS);
    expect(answers.filter((answer) => answer.statusText === RATE_LIMITED)).toHaveLength(150 - PER_ADDRESS);
    expect((await storedRows()) - before).toBe(PER_ADDRESS);
  });

  test('many real client addresses together store no more than the site-wide ceiling, and keep what they typed', async () => {
    const answers: FormAnswer[] = [];
    // Requests and sign-ups count together, each from its own address.
    for (let client = 2; client < 2 + SITE; client++) {
      const localAddress = `127.0.0.${client}`;
      answers.push(await postForm(url, 'support', request(`Spread ${RUN} ${client}`), { localAddress }));
      answers.push(await postForm(url, 'subscribe', { email: `spread-${RUN}-${client}@example.com` }, { localAddress }));
    }
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(await storedRows()).toBe(SITE);
    const refused = answers.filter((answer) => answer.statusText === SITE_BUSY);
    expect(refused.length).toBe(answers.length - (SITE - PER_ADDRESS));
    // The refused visitor's text comes back in the form.
    const lastRequest = answers.at(-2)!;
    expect(lastRequest.statusText).toBe(SITE_BUSY);
    expect(lastRequest.html).toContain(`Spread ${RUN} ${1 + SITE}`);
  });
});
