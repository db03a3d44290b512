/**
 * Publishing as an editor does on the embedded dataset, for the measuring scripts: edit a copy of the
 * NDJSON dataset (CONTENT_FILE), post the webhook signed as Sanity signs it, and time until a plain GET
 * (nothing cached on the client) shows the edit.
 */
import { editDocument, postWebhook } from '../../testkit/dataset.ts';
import { sleep } from '../../testkit/processes.ts';
import { median } from './report.ts';

const VISIBLE_TIMEOUT_MS = 10_000;

type Section = { body?: { children?: { text?: string }[] }[] };

/** Sets the text of privacy section `index` (wrapping around). */
async function setSectionText(file: string, index: number, text: string) {
  await editDocument(
    'privacyPolicy',
    (doc) => {
      const sections = (doc.sections ?? []) as Section[];
      const span = sections[index % sections.length]?.body?.[0]?.children?.[0];
      if (typeof span?.text !== 'string') throw new Error(`privacy section ${index % sections.length} of ${file} has no text span`);
      span.text = text;
      doc._updatedAt = new Date().toISOString();
    },
    file,
  );
}

/**
 * `edits` publishes of a privacy section; for each, the milliseconds from the webhook's answer to the
 * first GET /privacy on `origin` that shows the edit (null: not within 10 s).
 */
export async function publishes({
  origin,
  contentFile,
  secret,
  edits,
  log,
}: {
  origin: string;
  contentFile: string;
  secret: string;
  edits: number;
  log: (line: string) => void;
}) {
  const times: (number | null)[] = [];
  for (let edit = 1; edit <= edits; edit++) {
    // Letters, digits and spaces only, so the text reads the same in the HTML.
    const text = `Published edit ${edit} of run ${process.pid} at ${Date.now()}`;
    await setSectionText(contentFile, edit - 1, text);
    const webhook = await postWebhook(origin, { _type: 'privacyPolicy', _id: 'privacyPolicy' }, secret);
    if (!webhook.ok) throw new Error(`webhook answered ${webhook.status}: ${await webhook.text()}`);
    const answered = performance.now();
    let seenMs: number | null = null;
    while (seenMs === null && performance.now() - answered < VISIBLE_TIMEOUT_MS) {
      if ((await (await fetch(`${origin}/privacy`, { cache: 'no-store' })).text()).includes(text))
        seenMs = Math.round(performance.now() - answered);
      else await sleep(20);
    }
    times.push(seenMs);
    log(`edit ${edit}: ${seenMs === null ? `not visible within ${VISIBLE_TIMEOUT_MS} ms` : `${seenMs} ms`}`);
  }
  const seen = times.filter((ms): ms is number => ms !== null);
  return { edits, medianMs: median(seen), worstMs: seen.length === edits ? Math.max(...seen) : null, times };
}
