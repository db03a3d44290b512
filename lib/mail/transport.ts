import 'server-only';

import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

import nodemailer from 'nodemailer';

import { smtpLocation } from '@/lib/env/mail';
import { dataDir, smtpTimeoutMs, smtpUrl } from '@/lib/env/server';

import type { Mail } from './message';
import { CONCURRENCY } from './pace';

/**
 * Where the emails go: the SMTP server of SMTP_URL (nodemailer, a pool of CONCURRENCY connections), or
 * without one an .eml file per email under DATA_DIR/mail, which any mail client opens. `send` resolves
 * once the server accepted the message (or the file is in place), with the server's answer; it rejects
 * after `deadlineMs`, having closed the connection first, so that a message given up on cannot be
 * accepted afterwards (nodemailer's AbortSignal).
 */
export type Transport = { where: string; send(mail: Mail, deadlineMs: number): Promise<{ response: string }>; close(): void };

function smtpTransport(url: string): Transport {
  const timeout = smtpTimeoutMs();
  const pool = nodemailer.createTransport({
    url,
    pool: true,
    maxConnections: CONCURRENCY,
    // Never resent by nodemailer when a connection drops mid-message: the outbox retries, under its lease.
    maxRequeues: 0,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
    // Given up on: the socket goes at once, not after a grace period in which the server could still accept.
    socketCloseTimeout: 0,
  });
  return {
    where: smtpLocation(url),
    async send(mail, deadlineMs) {
      const info = await pool.sendMail({ ...mail, signal: AbortSignal.timeout(deadlineMs) });
      return { response: info.response ?? '' };
    },
    close: () => pool.close({ force: true }),
  };
}

/** The .eml file of an email: named by its Message-ID, so a retry writes the same file again. */
const fileName = (mail: Mail) => `${mail.messageId.slice(1, mail.messageId.lastIndexOf('@'))}.eml`;

function fileTransport(dir: string): Transport {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    where: dir,
    async send(mail, deadlineMs) {
      const signal = AbortSignal.timeout(deadlineMs);
      const { message } = (await composer.sendMail({ ...mail, signal })) as { message: Buffer };
      await mkdir(dir, { recursive: true });
      const file = path.join(dir, fileName(mail));
      // Whole or not at all: a reader (a mail client, a test) never sees half a message.
      await writeFile(`${file}.tmp`, message, { signal });
      await rename(`${file}.tmp`, file);
      return { response: `written to ${file}` };
    },
    close: () => composer.close(),
  };
}

export const mailDir = () => path.join(dataDir(), 'mail');

export function createTransport(): Transport {
  const url = smtpUrl();
  return url ? smtpTransport(url) : fileTransport(mailDir());
}
