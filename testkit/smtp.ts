/**
 * A real SMTP server for the tests and the bench (the `smtp-server` package), on a free port of
 * 127.0.0.1, keeping what it accepted. It can hold the reply to a message's DATA, as a slow server does:
 * a held message is accepted (250) only when released, and one whose client disconnects before that is
 * dropped, never accepted, as a real mail server drops a message whose client went away before it
 * answered. It can also refuse the next messages with a code (421 to come back later, 550 for good). What
 * arrived is read with testkit/mail.ts.
 *
 * Relative imports with real extensions only: plain `node` runs the bench, which uses it too.
 */
import { SMTPServer } from 'smtp-server';

import { freePort } from './processes.ts';

export type Accepted = { envelopeTo: string[]; raw: Buffer; at: number };

type Held = { raw: Buffer; envelopeTo: string[]; accept: () => void };

export type SmtpServer = {
  /** SMTP_URL for the app. */
  url: string;
  /** Every message accepted, in order. */
  accepted: Accepted[];
  /** How many held messages were dropped because their client disconnected first. */
  dropped(): number;
  /** Messages whose DATA reply is held now, by SMTP session. */
  held(): Map<string, { raw: Buffer; envelopeTo: string[] }>;
  /** From now on, hold every message's reply until release(). */
  hold(): void;
  /** Accepts every held message, and stops holding. */
  release(): void;
  /** Answers the next `count` messages' DATA with `code` (4xx: try later; 5xx: never) instead of accepting them. */
  refuse(code: number, count: number): void;
  close(): Promise<void>;
};

export async function startSmtpServer(): Promise<SmtpServer> {
  const accepted: Accepted[] = [];
  const held = new Map<string, Held>();
  let holding = false;
  let dropped = 0;
  let refusals: { code: number; left: number } = { code: 0, left: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    // Bigger than any email of the site; a message over it is refused, as a real server refuses one.
    size: 1024 * 1024,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const envelopeTo = session.envelope.rcptTo.map((rcpt) => rcpt.address);
        const raw = Buffer.concat(chunks);
        if (refusals.left > 0) {
          refusals.left -= 1;
          return callback(Object.assign(new Error(`${refusals.code} refused by the test server`), { responseCode: refusals.code }));
        }
        const accept = () => {
          accepted.push({ envelopeTo, raw, at: performance.now() });
          callback();
        };
        if (holding) held.set(session.id, { raw, envelopeTo, accept });
        else accept();
      });
    },
    onClose(session) {
      if (held.delete(session.id)) dropped += 1;
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    accepted,
    dropped: () => dropped,
    held: () => new Map([...held].map(([id, { raw, envelopeTo }]) => [id, { raw, envelopeTo }])),
    hold: () => void (holding = true),
    release() {
      holding = false;
      for (const [id, message] of held) {
        held.delete(id);
        message.accept();
      }
    },
    refuse: (code, count) => void (refusals = { code, left: count }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
