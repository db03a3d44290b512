import 'server-only';

import {
  HAND_EDIT_IDENTITY,
  isPublishedId,
  newId,
  createHandler,
  type LakeHandler,
  type Validate,
  Lake,
  LAKE_PATH,
  localLakeFiles,
  LOCAL_EDITOR,
  LOCAL_PROJECT,
  Presence,
  userNamed,
} from '@school-site/content-lake';
import { contentFile, dataDir } from '@/lib/env/server';

import { serveLanguages } from '@/lib/shared/language-gate';
import { toSiteLanguages } from '@/lib/shared/languages';
import { plainTextRefusals } from '@/lib/shared/plain-text';
import { followPolicy } from '@/lib/policy/policy-follow';
import { isRecordId, POLICY_ID } from '@/lib/policy/policy-record';
import { scheduleOf } from '@/lib/policy/policy-schedule';
import { amendRecord, fileRecordProblems, recordProblems } from '@/lib/policy/policy-record-lake';
import { expireContent } from './revalidate';
import { CONTENT_TYPES } from '@/lib/shared/content-types';

/**
 * The embedded default's Content Lake, in this server: the Studio edits it over /api/lake, and the site
 * reads it in process (client.ts). One per process, kept on globalThis because Next loads this module
 * once per bundle layer (the API route's and the pages'): both must share the dataset and its writer.
 *
 * - The content lives in CONTENT_FILE (the committed seed by default), written through on every change:
 *   `git diff` shows what the editors changed, and a commit ships it. Draft-mode secrets and other system
 *   documents go to DATA_DIR instead, out of the seed.
 * - A publish must pass the schema's rules, as must a hand edit of the file (schema-check.ts).
 * - Releases scheduled in the Studio are published by the lake's own timer (packages/content-lake/src/scheduler.ts).
 * - Every commit that changed published documents refreshes their pages (revalidate.ts, expireContent), by
 *   one path whatever made it: a request, the scheduler, a hand edit of the file.
 */

const KEY = Symbol.for('hallway.localLake');
type Local = {
  lake: Lake;
  handle: LakeHandler;
  presence: Presence;
};
const globals = globalThis as typeof globalThis & { [KEY]?: Promise<Local> };

/**
 * What keeps the site's published documents from rendering, for the dataset's hand-edit check; the text
 * rule judges only what changed since `before` (the lake's documents; at its start, the file itself).
 */
async function problemsOf(documents: { _id: string; _type: string }[], before: readonly { _id: string }[]): Promise<string[]> {
  const { problemList } = await import('./schema-check');
  const published = documents.filter((doc) => isPublishedId(doc._id));
  const was = new Map(before.map((doc) => [doc._id, doc]));
  return [
    ...(await problemList(published, CONTENT_TYPES)),
    ...published.flatMap((doc) => plainTextRefusals(doc, was.get(doc._id)).map((problem) => `${doc._type}: ${problem}`)),
    ...fileRecordProblems(published),
  ];
}

/** What a publish must pass: the schema's rules, the text rule, and the policy's date against its record. */
const validate: Validate = async (doc, tx) => {
  if (!(CONTENT_TYPES as readonly string[]).includes(doc._type)) return [];
  const { problemsByType } = await import('./schema-check');
  return [
    ...((await problemsByType([doc], [doc._type], false)).get(doc._type) ?? []),
    ...plainTextRefusals(doc),
    ...recordProblems(doc, tx, true),
  ];
};

/** The documents whose publish the policy's followers must hear of (policy-follow.ts), besides the record itself. */
const FOLLOWED = new Set([POLICY_ID, 'siteSettings']);

/** The record follows the file: after a hand edit of the policy, and at start (the file may be older than the lake's rules). */
function followRecord(lake: Lake): Promise<unknown> {
  return lake.dataset.commit(async () => undefined, newId(), HAND_EDIT_IDENTITY);
}

async function open(): Promise<Local> {
  const user = userNamed(LOCAL_EDITOR.id, LOCAL_EDITOR.name);
  // Set once the lake is open: before then, the file being checked is the lake's own content.
  const opened: { lake?: Lake } = {};
  const lake = await Lake.open({
    ...LOCAL_PROJECT,
    access: { kind: 'local' },
    file: contentFile(),
    watch: true,
    ...localLakeFiles(dataDir()),
    checkFile: (documents) => problemsOf(documents, opened.lake?.dataset.documents() ?? documents),
    validate,
    amend: amendRecord,
    user,
    onCommit: ({ changes, identity }) => {
      // The languages served (proxy.ts) are the published settings', as of this commit: the refresh below
      // asks for the pages of the languages the site has now.
      const settings = changes.find(({ id }) => id === 'siteSettings')?.after;
      if (settings) serveLanguages(toSiteLanguages(settings as Parameters<typeof toSiteLanguages>[0]));
      expireContent(
        changes
          .filter(({ id }) => isPublishedId(id))
          .map(({ before, after }) => ({ type: (after ?? before)!._type, language: (after ?? before)!.language })),
      );
      if (changes.some(({ id }) => FOLLOWED.has(id) || isRecordId(id)))
        followPolicy(scheduleOf(lake.dataset.documents())).catch((error: unknown) =>
          console.error('content lake: the policy clock and notices could not follow a publish', error),
        );
      if (identity === HAND_EDIT_IDENTITY && changes.some(({ id }) => id === POLICY_ID))
        followRecord(lake).catch((error: unknown) => console.error('content lake: the policy record could not follow a hand edit', error));
    },
  });
  opened.lake = lake;
  await followRecord(lake);
  return {
    lake,
    handle: createHandler(lake, LAKE_PATH),
    presence: new Presence(user.id, { kind: 'local' }),
  };
}

export function localLake(): Promise<Local> {
  globals[KEY] ??= open().catch((error: unknown) => {
    // The next request tries again: the file may have been fixed meanwhile.
    globals[KEY] = undefined;
    throw error;
  });
  return globals[KEY];
}
