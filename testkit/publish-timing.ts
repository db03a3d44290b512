/**
 * Publishing to several running servers of the embedded dataset, as Sanity would, and timing how long
 * each takes to show it: edit a privacy section in the dataset file they all read, send the signed
 * webhook to one of them, poll the page on every one, timed from before the webhook was sent. For tests
 * (one publish), npm run bench -- shared-cache, measure:stack and the bench (twenty).
 *
 * Only relative imports with real extensions and packages: plain `node` scripts import this file.
 */
import { editDocument, postWebhook, type Doc } from './dataset.ts';
import { median } from './stats.ts';

/** The page whose text a publish here changes. */
export const PUBLISHED_PAGE = '/privacy';
/** The list of the policy's versions, which a publish of a new version changes. */
const VERSIONS_PAGE = '/privacy/versions';
/** How often a server is asked for the page while waiting (ms). */
const POLL_MS = 20;

/** Ms from `since` until `origin` serves `page` with `text`, or null if it does not within `limitMs`. */
export async function visibleAfter(
  origin: string,
  text: string,
  since: number,
  limitMs: number,
  page = PUBLISHED_PAGE,
): Promise<number | null> {
  for (;;) {
    const response = await fetch(new URL(page, origin)).catch(() => null);
    const elapsed = performance.now() - since;
    if (response && (await response.text()).includes(text)) return Math.round(elapsed);
    if (elapsed > limitMs) return null;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

type Section = { body?: { children?: { text?: string }[] }[] };

/** What a timed publish changes (a file edit and the webhook): its document, its edit, the page that shows it. */
export type PublishTarget = {
  name: string;
  document: { _type: string; _id: string };
  page: string;
  edit: (doc: Doc, text: string) => void;
};

/** The text of the policy's first section, on /privacy. */
export const POLICY_SECTION: PublishTarget = {
  name: 'section',
  document: { _type: 'privacyPolicy', _id: 'privacyPolicy' },
  page: PUBLISHED_PAGE,
  edit: (doc, text) => {
    const span = (doc.sections as Section[] | undefined)?.[0]?.body?.[0]?.children?.[0];
    if (typeof span?.text !== 'string') throw new Error('the first privacy section has no text span');
    span.text = text;
  },
};

/** A new version of the policy, listed on /privacy/versions: "Last updated" a day later, and the text as its summary of changes. */
export const POLICY_VERSION: PublishTarget = {
  name: 'version',
  document: { _type: 'privacyPolicy', _id: 'privacyPolicy' },
  page: VERSIONS_PAGE,
  edit: (doc, text) => {
    doc.lastUpdated = new Date(Date.parse(`${String(doc.lastUpdated)}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    doc.summary = text;
  },
};

/** The headline of the landing page's translation into `language`, on that language's home page. */
export const translatedHeadline = (language: string): PublishTarget => ({
  name: `${language} headline`,
  document: { _type: 'landingPage', _id: `landingPage-${language}` },
  page: `/${language}`,
  edit: (doc, text) => void ((doc.hero as { headline: string }).headline = text),
});

export type PublishTiming = { visible: Array<number | null>; text: string };

/** One publish of `target` through `publishTo`; per watched server, ms until it shows it (null: not within limitMs). */
export async function timePublish(
  { contentFile, secret, publishTo, watch }: { contentFile: string; secret: string; publishTo: string; watch: string[] },
  limitMs = 2000,
  target: PublishTarget = POLICY_SECTION,
): Promise<PublishTiming> {
  // Letters, digits and spaces only, so the text reads the same in the HTML.
  const text = `Shared publish ${Date.now()} ${Math.random().toString(36).slice(2)}`;
  await editDocument(
    target.document._id,
    (doc) => {
      target.edit(doc, text);
      doc._updatedAt = new Date().toISOString();
    },
    contentFile,
  );
  const since = performance.now();
  const webhook = await postWebhook(publishTo, target.document, secret);
  if (!webhook.ok) throw new Error(`webhook answered ${webhook.status}: ${await webhook.text()}`);
  const visible = await Promise.all(watch.map((origin) => visibleAfter(origin, text, since, limitMs, target.page)));
  return { visible, text };
}

/**
 * `count` publishes, one after another, each timed on every watched server: prints one line per
 * publish, then the median and worst of "visible on all of them" (a server that never showed one
 * counts as the limit). Returns those two, in ms.
 */
export async function measurePublishes(
  options: { contentFile: string; secret: string; publishTo: string; watch: string[] },
  {
    count = 20,
    limitMs = 10_000,
    log = console.log,
    target = POLICY_SECTION,
  }: { count?: number; limitMs?: number; log?: (line: string) => void; target?: PublishTarget } = {},
): Promise<{ median: number; worst: number; missed: number }> {
  const all: number[] = [];
  let missed = 0;
  for (let i = 1; i <= count; i += 1) {
    const { visible } = await timePublish(options, limitMs, target);
    missed += visible.filter((ms) => ms === null).length;
    all.push(Math.max(...visible.map((ms) => ms ?? limitMs)));
    log(
      `${target.name} publish ${String(i).padStart(2)}: visible ${visible.map((ms, n) => `#${n + 1} ${ms === null ? 'never' : `${ms} ms`}`).join(', ')}`,
    );
  }
  const result = { median: Math.round(median(all)!), worst: Math.max(...all), missed };
  log(`visible on all ${options.watch.length}: median ${result.median} ms, worst ${result.worst} ms, ${missed} not within ${limitMs} ms`);
  return result;
}
