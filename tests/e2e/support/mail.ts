import { expect } from '@playwright/test';

import { E2E_SERVERS } from '../../../testkit/e2e-servers.ts';
import { readMailFiles, type ReadMail } from '../../../testkit/mail.ts';

/** The email to `to` that the `main` server wrote (an .eml file under its DATA_DIR/mail: no SMTP_URL), once it is there. */
export async function mailTo(to: string): Promise<ReadMail> {
  let found: ReadMail | undefined;
  await expect
    .poll(async () => (found = (await readMailFiles(E2E_SERVERS.main.dataDir)).find((mail) => mail.to === to)), {
      message: `an email to ${to}`,
      timeout: 15_000,
    })
    .toBeDefined();
  return found!;
}

/** A link of the emails (or a path) as a path on the server under test (the build's NEXT_PUBLIC_SITE_URL may name another origin). */
export const onServer = (link: string) => {
  const url = new URL(link, 'http://server.invalid');
  return `${url.pathname}${url.search}`;
};
