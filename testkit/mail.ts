/**
 * Reading the site's emails as a mail client does (`mailparser`): from the test SMTP server
 * (testkit/smtp.ts) or from the .eml files the site writes under DATA_DIR/mail without SMTP_URL. For
 * the tests and the bench alike.
 *
 * Relative imports with real extensions only: plain `node` runs the bench, which uses it too.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

import { simpleParser, type ParsedMail } from 'mailparser';

import { TOKEN_PARAM } from '../lib/shared/public-pages.ts';
import { decodeEntities } from './forms.ts';

export type ReadMail = {
  to: string;
  subject: string;
  messageId: string;
  text: string;
  html: string;
  /** Every header, lower-case names, as the raw message has it (unfolded). */
  header(name: string): string | undefined;
  /** Every link of the HTML part, in order. */
  htmlLinks: string[];
  /** Every http(s) address of the text part, in order. */
  textLinks: string[];
};

const firstAddress = (parsed: ParsedMail) => {
  const to = Array.isArray(parsed.to) ? parsed.to[0] : parsed.to;
  return to?.value[0]?.address ?? '';
};

export async function readMail(raw: Buffer | string): Promise<ReadMail> {
  const parsed = await simpleParser(raw);
  const html = typeof parsed.html === 'string' ? parsed.html : '';
  const text = parsed.text ?? '';
  return {
    to: firstAddress(parsed),
    subject: parsed.subject ?? '',
    messageId: parsed.messageId ?? '',
    text,
    html,
    header: (name) => {
      const line = parsed.headerLines.find((header) => header.key === name.toLowerCase())?.line;
      return line
        ?.slice(line.indexOf(':') + 1)
        .replace(/\r?\n[ \t]+/g, ' ')
        .trim();
    },
    htmlLinks: [...html.matchAll(/href="([^"]*)"/g)].map((match) => decodeEntities(match[1]!)),
    textLinks: [...text.matchAll(/https?:\/\/\S+/g)].map((match) => match[0]),
  };
}

/** The .eml files the site wrote under `dataDir` (DATA_DIR/mail), each read; none before the first. */
export async function readMailFiles(dataDir: string): Promise<ReadMail[]> {
  const dir = path.join(dataDir, 'mail');
  const files = (await readdir(dir).catch(() => [])).filter((name) => name.endsWith('.eml')).sort();
  return Promise.all(files.map(async (name) => readMail(await readFile(path.join(dir, name)))));
}

/** The token of a link of the emails. */
export const tokenOf = (link: string) => new URL(link).searchParams.get(TOKEN_PARAM) ?? '';
