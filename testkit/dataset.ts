/**
 * The NDJSON dataset as tests and scripts edit it, and the signed webhook that announces an edit: they
 * publish by editing a copy of the dataset (never the committed seed) and posting the webhook, exactly
 * as a deployment would. Relative imports with real extensions only: plain `node` scripts import this.
 */
import { copyFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

import type { SanityDocument } from '@sanity/client';
import { encodeSignatureHeader, SIGNATURE_HEADER_NAME } from '@sanity/webhook';

// The site's own reader: a line the site would refuse is refused here too.
import { parseNdjson } from '@school-site/content-lake';
import { CONTENT_TYPES } from '../lib/shared/content-types.ts';
import { WEBHOOK_SECRET } from './e2e-servers.ts';
import { lakeClient } from './hosted.ts';
import { SEED_FILE } from './paths.ts';

export { SEED_FILE, WEBHOOK_SECRET };

/** The browser tests' server's copy of the dataset (testkit/e2e-server.mjs makes it). */
export const E2E_CONTENT_FILE = path.resolve(process.env.CONTENT_FILE ?? '.data/e2e/seed/production.ndjson');

export type Doc = { _id: string; _type: string; [key: string]: unknown };

export async function readDataset(file = E2E_CONTENT_FILE): Promise<Doc[]> {
  return parseNdjson(await readFile(file, 'utf8'), file);
}

/** Written aside and renamed into place: the server never reads half a file. */
export async function writeDataset(docs: Doc[], file = E2E_CONTENT_FILE): Promise<void> {
  await writeFile(`${file}.tmp`, docs.map((doc) => JSON.stringify(doc)).join('\n') + '\n');
  await rename(`${file}.tmp`, file);
}

/** Applies `edit` to a copy of document `id` and writes the dataset back (the browser tests' server's, or `file`). */
export async function editDocument(id: string, edit: (doc: Doc) => Doc | void, file = E2E_CONTENT_FILE): Promise<void> {
  const docs = await readDataset(file);
  const index = docs.findIndex((doc) => doc._id === id);
  if (index < 0) throw new Error(`No document ${id} in ${file}`);
  const copy = structuredClone(docs[index]!);
  docs[index] = edit(copy) ?? copy;
  await writeDataset(docs, file);
}

/** A copy of the seed in `dir` (dir/seed/production.ndjson), for a server to read and a run to edit. */
export async function seedCopy(dir: string): Promise<string> {
  const file = path.join(dir, 'seed', 'production.ndjson');
  await mkdir(path.dirname(file), { recursive: true });
  await copyFile(SEED_FILE, file);
  return file;
}

/** A copy of the policy `doc` with `text` typed at the end of its first section, as a reviewer's edit. */
export function withSentence(doc: Doc, text: string): Doc {
  const copy = structuredClone(doc);
  (copy.sections as { body: { children: { text: string }[] }[] }[])[0]!.body.at(-1)!.children.at(-1)!.text += ` ${text}`;
  return copy;
}

/** A day of the record as the pages and emails write it in `locale` ("November 22, 2026"), worked out here, not by the site. */
export const writtenDay = (date: string, locale = 'en-US') =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));

/** A language written right to left, as an editor adds one: Arabic in the settings, its landing page translated. */
export const ARABIC = { tag: 'ar', headline: 'تواصل مع مجتمع مدرستك، دون أن تكشف عن نفسك' } as const;

/** The Arabic words of the 404 page and of the subscription's emails and pages, as a translator would enter them. */
export const ARABIC_SETTINGS = {
  notFound: {
    label: '404',
    heading: 'الصفحة غير موجودة',
    text: 'هذه الصفحة غير موجودة. ربما نُقلت، أو أن العنوان مكتوب خطأً.',
    description: 'الصفحة التي تبحث عنها غير موجودة.',
    homeLink: 'الذهاب إلى الصفحة الرئيسية',
    supportLink: 'طلب المساعدة',
  },
  subscription: {
    confirmSubject: 'أكّد بريدك لتصلك أخبار {productName}',
    confirmText:
      'طلب أحدهم، ونرجو أن تكون أنت، تلقي رسائل {productName} على هذا العنوان: عند إطلاق ميزة وعند تغيّر سياسة الخصوصية. أكّد عنوانك لتبدأ في تلقيها.',
    confirmLink: 'تأكيد اشتراكي',
    confirmIgnore: 'إن لم تطلب ذلك فتجاهل هذه الرسالة: بلا تأكيد ننسى هذا العنوان خلال 7 أيام.',
    noticeSubject: 'تتغيّر سياسة الخصوصية في {productName} يوم {date}',
    noticeText: 'نغيّر سياسة الخصوصية في {productName}. تسري النسخة الجديدة يوم {date}.',
    noticeSummaryLabel: 'ما الذي يتغيّر:',
    noticeVersionLink: 'قراءة النسخة الجديدة',
    noticeChangesLink: 'عرض كل التغييرات',
    emailFooter: 'تصلك هذه الرسالة لأن هذا العنوان اشترك في أخبار {productName}.',
    unsubscribeLink: 'إلغاء الاشتراك',
  },
} as const;

/**
 * Adds ARABIC to the dataset `file` (a copy of the seed), as a translator who has just begun: the settings
 * list it; its landing page has its headline only, its settings the 404 page's and the emails' words only;
 * everything else shows in English until translated.
 */
export async function addArabic(file: string): Promise<void> {
  const docs = await readDataset(file);
  const settings = docs.find((doc) => doc._id === 'siteSettings')!;
  (settings.languages as object[]).push({ _key: ARABIC.tag, _type: 'siteLanguage', tag: ARABIC.tag, name: 'العربية', direction: 'rtl' });
  const now = new Date().toISOString();
  const translation = (type: string, fields: object): Doc => ({
    _id: `${type}-${ARABIC.tag}`,
    _type: type,
    _createdAt: now,
    _updatedAt: now,
    _rev: `${type}-${ARABIC.tag}`,
    language: ARABIC.tag,
    ...fields,
  });
  docs.push(translation('landingPage', { hero: { headline: ARABIC.headline } }), translation('siteSettings', ARABIC_SETTINGS));
  await writeDataset(docs, file);
}

/** Lists languages `tags` in the settings of dataset `file`, as an editor adds them: named in their own words, no page translated yet. */
export async function addLanguages(file: string, tags: readonly string[]): Promise<void> {
  const docs = await readDataset(file);
  const settings = docs.find((doc) => doc._id === 'siteSettings')!;
  const name = (tag: string) => new Intl.DisplayNames([tag], { type: 'language' }).of(tag) ?? tag;
  (settings.languages as object[]).push(
    ...tags.map((tag) => ({ _key: tag, _type: 'siteLanguage', tag, name: name(tag), direction: 'ltr' })),
  );
  settings._updatedAt = new Date().toISOString();
  await writeDataset(docs, file);
}

/** The embedded lake's data API on a server of the site, as the Studio and scripts call it. */
export const LAKE_API = '/api/lake/v2025-02-19/data';

/**
 * Publishes document `id` of the dataset `file` through the lake's API of the server at `origin`, as a
 * script would: `change` applied to it as published, written as its draft, then published. Throws with
 * the lake's answer when it refuses either.
 */
export async function publishThroughLake(origin: string, file: string, id: string, change: (doc: Doc) => Doc): Promise<void> {
  const lake = async (endpoint: 'mutate' | 'actions', body: object) => {
    const answer = await fetch(`${origin}${LAKE_API}/${endpoint}/production`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (answer.status !== 200) throw new Error(`the lake refused the ${endpoint} of ${id}: ${answer.status} ${await answer.text()}`);
  };
  const doc = (await readDataset(file)).find((each) => each._id === id)!;
  await lake('mutate', { mutations: [{ createOrReplace: { ...change(structuredClone(doc)), _id: `drafts.${id}` } }] });
  await lake('actions', { actions: [{ actionType: 'sanity.action.document.publish', draftId: `drafts.${id}`, publishedId: id }] });
}

export async function restoreSeed(): Promise<void> {
  await writeDataset(await readDataset(SEED_FILE));
}

/** Posts a webhook call signed as Sanity signs it; `secret` lets a test forge a wrong one. */
export async function postWebhook(baseURL: string, body: unknown, secret = WEBHOOK_SECRET): Promise<Response> {
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  const signature = await encodeSignatureHeader(payload, Date.now(), secret);
  return fetch(new URL('/api/revalidate', baseURL), {
    method: 'POST',
    headers: { 'content-type': 'application/json', [SIGNATURE_HEADER_NAME]: signature },
    body: payload,
  });
}

/** Puts the seed back and refreshes every page, so later tests see the seed again. */
export async function resetContent(baseURL: string): Promise<void> {
  await restoreSeed();
  for (const _type of CONTENT_TYPES) await postWebhook(baseURL, { _type, _id: _type });
}

/** The stand-in back to the seed, as a hosted test found it: seed documents replaced, every other one (drafts, secrets) deleted, pages refreshed. */
export async function resetLake(baseURL: string): Promise<void> {
  const lake = lakeClient().withConfig({ perspective: 'raw' });
  const seed = await readDataset(SEED_FILE);
  const keep = new Set(seed.map((doc) => doc._id));
  const transaction = lake.transaction();
  // Releases change through their actions only (a test deletes its own); every other document goes.
  for (const id of await lake.fetch<string[]>('*[]._id')) if (!keep.has(id) && !id.startsWith('_.releases.')) transaction.delete(id);
  for (const doc of seed) transaction.createOrReplace(doc as SanityDocument);
  await transaction.commit();
  for (const doc of seed) await postWebhook(baseURL, { _type: doc._type, _id: doc._id });
}
