import { readFile } from 'node:fs/promises';

import type { Page } from '@playwright/test';

import { actorName, type Officer } from '../lib/shared/back-office.ts';
import words from '../studio/back-office/words.en-US.ts';
import { expect } from './test.ts';

/**
 * The Studio's back office tool as a person drives it, by the roles and names a screen reader reads,
 * in the tool's own words (studio/back-office/words.en-US.ts): the same steps on the embedded default
 * and on a hosted project. Each step waits for what the tool shows once the server has answered.
 */

type Key = keyof typeof words;

/** One of the tool's sentences with its {{placeholders}} filled. */
export const said = (key: Key, values: Record<string, string | number> = {}): string =>
  words[key].replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? `{{${name}}}`));

/** Everything a sentence says around its placeholders, as a pattern: for the parts a test cannot know (a time). */
export const saying = (key: Key, values: Record<string, string | number> = {}): RegExp =>
  new RegExp(
    said(key, values)
      .split(/\{\{\w+\}\}/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.+'),
  );

/** The tool on `page`, its tabs and its status lines. */
function officeOn(page: Page) {
  const tool = page.getByRole('region', { name: 'Back office' });
  return {
    page,
    tool,
    tab: async (key: Key) => {
      await tool.getByRole('tab', { name: said(key) }).click();
      await expect(tool.getByRole('tab', { name: said(key) })).toHaveAttribute('aria-selected', 'true');
    },
    status: (pattern: RegExp | string) => tool.getByRole('status').filter({ hasText: pattern }),
  };
}
type Office = ReturnType<typeof officeOn>;

/** Opens the tool at its own path under the Studio, and waits until the server has said who the editor is. */
async function openOffice(page: Page, origin: string, signedInAs: string): Promise<Office> {
  const office = officeOn(page);
  await page.goto(`${origin}/studio/back-office`);
  await expect(office.tool.getByText(said('tool.signed-in', { name: signedInAs }))).toBeVisible({ timeout: 30_000 });
  return office;
}

/** Finds the one request from `email` in `language` (its name in the filter), opens it and marks it answered. */
async function answerRequest({ page, tool, tab, status }: Office, { email, language, subject, officer }: Person) {
  await tab('tab.requests');
  await tool.getByRole('combobox', { name: said('requests.language') }).selectOption({ label: language });
  await tool.getByRole('searchbox', { name: said('requests.search') }).fill(email);
  await tool.getByRole('button', { name: said('requests.search-button'), exact: true }).click();
  await expect(status(said('requests.shown_one', { count: 1 }))).toBeVisible();
  const item = tool.getByRole('list', { name: said('requests.list') }).getByRole('listitem');
  await expect(item).toHaveCount(1);
  await expect(item).toContainText(language);
  await item.getByRole('button', { name: subject }).click();
  const dialog = page.getByRole('dialog', { name: subject });
  await expect(dialog.getByRole('link', { name: said('requests.reply') })).toHaveAttribute('href', new RegExp(`^mailto:${email}\\?`));
  await dialog.getByRole('button', { name: said('requests.mark-answered') }).click();
  await expect(dialog.getByRole('status')).toContainText(said('requests.marked-answered'));
  await expect(dialog).toContainText(saying('requests.answered-by', { who: actorName(officer) }));
  await expect(dialog.getByRole('button', { name: said('requests.reopen') })).toBeVisible();
  await dialog.getByRole('button', { name: 'Close dialog' }).click();
  await expect(item).toContainText(said('status.answered'));
}

/** The counts of the version of `date` as its row in Notices shows them. */
async function versionRow({ page, tool, tab }: Office, date: string): Promise<string> {
  await tab('tab.notices');
  const row = tool
    .getByRole('table', { name: said('notices.versions') })
    .getByRole('row')
    .filter({ has: page.getByRole('button', { name: said('notices.open', { date }) }) });
  await expect(row).toBeVisible();
  return (await row.innerText()).replace(/\s+/g, ' ');
}

/** Opens the version of `date` in Notices (its row must be shown). */
const openVersion = ({ tool }: Office, date: string) => tool.getByRole('button', { name: said('notices.open', { date }) }).click();

/** Looks `email` up in "A person". */
async function lookUp({ tool, tab }: Office, email: string) {
  await tab('tab.person');
  await tool.getByRole('textbox', { name: said('person.address') }).fill(email);
  await tool.getByRole('button', { name: said('person.show') }).click();
}

/** The file the browser saves when `button` is pressed: its name and its text. */
async function downloaded({ page, tool }: Office, button: Key): Promise<{ name: string; text: string }> {
  const download = page.waitForEvent('download');
  await tool.getByRole('button', { name: said(button) }).click();
  const file = await download;
  return { name: file.suggestedFilename(), text: await readFile(await file.path(), 'utf8') };
}

/** Erases the person shown, through the confirmation dialog. */
async function erasePerson({ page, tool, status }: Office) {
  await tool.getByRole('button', { name: said('person.erase') }).click();
  const dialog = page.getByRole('dialog', { name: said('person.erase-title') });
  await dialog.getByRole('button', { name: said('person.erase-confirm'), exact: true }).click();
  await expect(status(saying('person.erased'))).toBeVisible();
}

/** Runs `sql` (with $1) against the store the server uses: PGlite's copy, or Postgres. */
export type StoreQuery = <T>(sql: string, params: unknown[]) => Promise<T[]>;

/** The tables, in the site's own schemas, whose rows hold `text` anywhere (any case). */
export async function tablesHolding(query: StoreQuery, text: string): Promise<string[]> {
  const tables = await query<{ name: string }>(
    `select table_schema || '.' || table_name as name from information_schema.tables
     where table_schema in ('public', 'private') and table_type = 'BASE TABLE' and $1::text is not null order by 1`,
    [text],
  );
  const holding: string[] = [];
  for (const { name } of tables) {
    const [row] = await query<{ n: number }>(`select count(*)::int as n from ${name} as t where strpos(lower(t::text), lower($1)) > 0`, [
      text,
    ]);
    if (row!.n > 0) holding.push(name);
  }
  return holding;
}

type Person = { origin: string; officer: Officer; email: string; subject: string; language: string; day: string; query: StoreQuery };

/**
 * What the people who run the site do with a parent's request, on either path: the parent's request is
 * found by language and address, opened and marked answered; the notice of `day` lists the parent among
 * whom it told; the parent's data is exported, then erased; after that the store holds the address
 * nowhere, while the notice's counts stay and it still answers "told" for the address presented.
 */
export async function answerAndErase(page: Page, person: Person) {
  const office = await openOffice(page, person.origin, person.officer.name);
  await answerRequest(office, person);

  const counts = await versionRow(office, person.day);
  await openVersion(office, person.day);
  const recipients = office.tool.getByRole('table', { name: said('notices.recipients', { date: person.day }) });
  await expect(recipients.getByRole('row').filter({ hasText: person.email })).toContainText(said('status.sent'));
  const csv = await downloaded(office, 'notices.csv');
  expect(csv.text.split('\r\n').filter((line) => line.startsWith(`${person.email},sent,`))).toHaveLength(1);

  await lookUp(office, person.email);
  await expect(office.tool.getByRole('heading', { name: said('person.held', { email: person.email }) })).toBeVisible();
  const exported = await downloaded(office, 'person.export');
  expect(exported.name).not.toContain(person.email);
  expect(JSON.parse(exported.text)).toMatchObject({
    email: person.email,
    requests: [expect.objectContaining({ subject: person.subject, status: 'answered' })],
    subscription: expect.objectContaining({ status: 'confirmed' }),
    emails: expect.arrayContaining([expect.objectContaining({ kind: 'notice', status: 'sent' })]),
  });
  await erasePerson(office);

  expect(await tablesHolding(person.query, person.email)).toEqual([]);
  await lookUp(office, person.email);
  await expect(office.status(said('person.nothing-held'))).toBeVisible();
  expect(await versionRow(office, person.day)).toBe(counts);
  await openVersion(office, person.day);
  await office.tool.getByRole('textbox', { name: said('notices.check-address') }).fill(person.email);
  await office.tool.getByRole('button', { name: said('notices.check-button'), exact: true }).click();
  await expect(office.status(saying('notices.was-told-erased', { date: person.day }))).toBeVisible();
  // The CSV for a reviewer's file still lists the notice, with no address.
  const after = (await downloaded(office, 'notices.csv')).text;
  expect(after).not.toContain(person.email);
  expect(after.split('\r\n').filter((line) => line.startsWith(',sent,'))).toHaveLength(1);

  // Who looked at the parent's data, exported and erased it: in the access log, for administrators.
  await office.tab('tab.access-log');
  const log = office.tool.getByRole('table', { name: said('log.list') });
  for (const action of ['action.read', 'action.export', 'action.erase'] as const)
    await expect(
      log
        .getByRole('row')
        .filter({ hasText: said(action) })
        .first(),
    ).toContainText(actorName(person.officer));
}
