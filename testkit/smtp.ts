/**
 * A real SMTP server for the tests and the bench (the `smtp-server` package), on a free port of
 * 127.0.0.1, keeping what it accepted. It can hold the reply to a message's DATA, as a slow server does:
 * a held message is accepted (250) only when released, and one whose client disconnects before that is
 * dropped, never accepted, as a real mail server drops a message whose client went away before it
 * answered. What arrived is read with testkit/mail.ts.
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
  close(): Promise<void>;
};

export async function startSmtpServer(): Promise<SmtpServer> {
  const accepted: Accepted[] = [];
  const held = new Map<string, Held>();
  let holding = false;
  let dropped = 0;
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
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
