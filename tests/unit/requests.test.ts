import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { afterAll, beforeAll, expect, it } from 'vitest';

import { callAs, openStore } from '@/lib/support/pglite';
import { APP_ROOT } from '@/testkit/paths';
import { preparedDataDir, storeDir } from '@/testkit/store';

/**
 * npm run requests on the embedded store: for legal reviewers, per announced version, how many subscribers
 * were told and when, beside the subscribers by state. (On hosted Supabase: lib/mail/mail.contract.test.ts.)
 */
const run = promisify(execFile);
let dataDir: string;

beforeAll(async () => {
  dataDir = await preparedDataDir(await mkdtemp(path.join(tmpdir(), 'requests-')));
  const db = await openStore(storeDir(dataDir), { fsync: false });
  try {
    await db.exec(`
      set session_replication_role = replica;
      insert into public.newsletter_subscribers (email, status, confirmed_at, unsubscribe_token)
        values ('told@example.com', 'confirmed', now(), 'a'), ('waiting@example.com', 'confirmed', now(), 'b'), ('new@example.com', 'pending', null, 'c');
      set session_replication_role = origin;
    `);
    await callAs(db, 'service_role', 'mail_announce', {
      version_date: '2027-01-15',
      summary: 'What changes.',
      announced_at: '2026-12-01T09:00:00Z',
    });
    const [claimed] = await callAs(db, 'service_role', 'mail_claim', { worker: 'test', max_rows: 1, lease_seconds: 60, max_attempts: 8 });
    await callAs(db, 'service_role', 'mail_sent', { outbox_id: claimed!.outbox_id!, message_id: '<m>', smtp_response: '250' });
  } finally {
    await db.close();
  }
}, 60_000);

afterAll(() => rm(dataDir, { recursive: true, force: true }));

it('prints, per announced version, the subscribers told, the first and last send and what is pending, and the subscribers by state', async () => {
  const { stdout } = await run(process.execPath, [path.join(APP_ROOT, 'scripts', 'requests.ts')], {
    cwd: APP_ROOT,
    env: { ...process.env, DATA_DIR: dataDir, NEXT_PUBLIC_SUPABASE_URL: '', SUPABASE_SECRET_KEY: '' },
  });
  expect(stdout).toContain('2 confirmed, 1 pending');
  const row = stdout.split('\n').find((line) => line.includes("'2027-01-15'"));
  const cells = row?.split('│').map((cell) => cell.trim().replace(/^'|'$/g, ''));
  // index, version, announced, withdrawn, told, first sent, last sent, pending, failed, cancelled
  expect(cells?.slice(2, 11)).toEqual([
    '2027-01-15',
    '2026-12-01T09:00:00.000Z',
    '–',
    '1',
    expect.stringMatching(/^\d{4}-/),
    expect.stringMatching(/^\d{4}-/),
    '1',
    '0',
    '0',
  ]);
}, 30_000);
