/**
 * The record of the privacy policy's versions: one document per "Last updated" date, kept
 * beside the content and never rewritten by ordinary editing, so that every text visitors could read stays
 * readable whatever happens to the history. A version is the published policy under its date; a publish
 * under the same date is a correction, and the text it replaced is kept in the version. Plain data and
 * rules, with no I/O: the Studio's validation, the local lake and the tests share them.
 */
export const VERSION_TYPE = 'privacyPolicyVersion';
export const POLICY_ID = 'privacyPolicy';
/** The longest *Summary of changes* a version may have (a sentence or two). */
export const SUMMARY_MAX = 300;
const ID_PREFIX = `${VERSION_TYPE}-`;

/** What a version keeps of the policy: what visitors read, and the reviewer's summary of what changed. */
export type PolicyText = { title: string; summary?: string; sections: unknown[] };
/** A text a correction replaced, and when. */
export type ReplacedText = PolicyText & { _key: string; _type: 'replacedPolicyText'; replacedAt: string };
export type PolicyVersion = PolicyText & {
  _id: string;
  _type: typeof VERSION_TYPE;
  _rev?: string;
  /** The policy's "Last updated" date: the version's name, and the day it took effect. */
  date: string;
  /** When this date was first published. */
  publishedAt: string;
  /** When it was last corrected, if ever. */
  correctedAt?: string;
  /** The texts corrections replaced, oldest first. */
  replaced?: ReplacedText[];
  /** Whether readers must be told of it ahead (policy-schedule.ts): subscribers are emailed once. */
  material?: boolean;
  /** When a publish of an earlier day withdrew it, before it took effect (policy-schedule.ts). */
  withdrawnAt?: string;
  /** Its text in each other language, as the translation of its date was last published. */
  translations?: PolicyTranslation[];
};

/** A version's text in one language other than the default's: keyed by its tag, so each language has one. */
export type PolicyTranslation = PolicyText & { _key: string; _type: 'policyTranslation'; language: string; recordedAt: string };

/** Any document, as the record's rules read it. */
export type Doc = { _id: string; _type: string; [key: string]: unknown };

export const versionId = (date: string) => `${ID_PREFIX}${date}`;
/** A record document's id, or a draft or release version of one (which only a forged write would make). */
export const isRecordId = (id: string) => id.split('.').at(-1)!.startsWith(ID_PREFIX);
export const isVersion = (doc: Doc | undefined): doc is Doc & PolicyVersion => doc?._type === VERSION_TYPE && doc._id.startsWith(ID_PREFIX);

/** The published versions, newest first. */
export function versionsOf(documents: Iterable<Doc>): PolicyVersion[] {
  return [...documents].filter(isVersion).sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
}

/** A published translation of the policy: a privacy policy document with a language of its own. */
export const isTranslation = (doc: Doc | undefined): doc is Doc & { language: string; lastUpdated: string } =>
  doc?._type === POLICY_ID && typeof doc.language === 'string' && doc.language !== '' && typeof doc.lastUpdated === 'string';

/** The text a published policy gives its version. */
function textOf(policy: Doc): PolicyText {
  const summary = typeof policy.summary === 'string' && policy.summary.trim() !== '' ? policy.summary : undefined;
  return {
    title: typeof policy.title === 'string' ? policy.title : '',
    ...(summary ? { summary } : {}),
    sections: (policy.sections as unknown[]) ?? [],
  };
}

const sameText = (a: PolicyText, b: PolicyText) =>
  JSON.stringify([a.title, a.summary ?? '', a.sections]) === JSON.stringify([b.title, b.summary ?? '', b.sections]);

/** A state of the published policy that a history holds, and when it was written. */
export type PolicyState = { at: string; policy: Doc };

/**
 * The versions a history shows that the record lacks, for the backfill: each date's first publish, with
 * the texts later publishes under that date replaced, as corrections. A date the record holds is left as it
 * is (the record is never rewritten), so a second run adds nothing.
 */
export function missingVersions(record: readonly PolicyVersion[], states: readonly PolicyState[]): PolicyVersion[] {
  const known = new Set(record.map(({ date }) => date));
  const made = new Map<string, PolicyVersion>();
  for (const { at, policy } of [...states].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))) {
    const date = policy.lastUpdated;
    if (typeof date !== 'string' || known.has(date)) continue;
    const current = made.get(date);
    const next = recordPublish(current ? [current] : [], policy, at);
    if (next) made.set(date, next);
  }
  return [...made.values()];
}

/**
 * The record document a publish of `policy` at `now` writes, or undefined when there is nothing to write:
 * a new date adds a version, the same date with another text corrects it (keeping the text it replaced),
 * the same text writes nothing. Whether the date may be published at all is policy-schedule.ts's to say.
 */
export function recordPublish(record: readonly PolicyVersion[], policy: Doc, now: string): PolicyVersion | undefined {
  const date = policy.lastUpdated;
  if (typeof date !== 'string') return undefined;
  const text = textOf(policy);
  const material = policy.materialChange === true ? { material: true } : {};
  const current = record.find((version) => version.date === date);
  if (!current) return { _id: versionId(date), _type: VERSION_TYPE, date, publishedAt: now, ...text, ...material };
  const { title, summary, sections, material: _wasMaterial, ...kept } = current;
  const sameMaterial = !!current.material === !!material.material;
  if (sameText(current, text))
    return sameMaterial ? undefined : { ...kept, title, ...(summary ? { summary } : {}), sections, ...material, correctedAt: now };
  const replaced: ReplacedText = {
    _key: `r${(current.replaced?.length ?? 0) + 1}`,
    _type: 'replacedPolicyText',
    replacedAt: now,
    title,
    ...(summary ? { summary } : {}),
    sections,
  };
  return { ...kept, ...text, ...material, correctedAt: now, replaced: [...(current.replaced ?? []), replaced] };
}

/** The text `version` records in `language`, if any. */
export const translationIn = (version: Pick<PolicyVersion, 'translations'>, language: string) =>
  version.translations?.find((translation) => translation.language === language);

/**
 * The version that records `translation` (a published translation dated `version.date`) as its text in
 * that language, or undefined when it holds that text already. A later publish of the same language and
 * date replaces it: the translation of a version is corrected the way the version is.
 */
export function recordTranslation(version: PolicyVersion, translation: Doc & { language: string }, now: string): PolicyVersion | undefined {
  const text = textOf(translation);
  const kept = (version.translations ?? []).filter(({ language }) => language !== translation.language);
  const current = translationIn(version, translation.language);
  if (current && sameText(current, text) && isUpToDate(version, current)) return undefined;
  const entry: PolicyTranslation = {
    _key: translation.language,
    _type: 'policyTranslation',
    language: translation.language,
    recordedAt: now,
    ...text,
  };
  return { ...version, translations: [...kept, entry].sort((a, b) => (a.language < b.language ? -1 : 1)) };
}

/**
 * Whether a version's translation is of its text as it stands: recorded since the version was published
 * or last corrected. One recorded before a correction translates words the version no longer has.
 */
export const isUpToDate = (
  version: Pick<PolicyVersion, 'publishedAt' | 'correctedAt'>,
  translation: Pick<PolicyTranslation, 'recordedAt'>,
) => translation.recordedAt >= (version.correctedAt ?? version.publishedAt);
