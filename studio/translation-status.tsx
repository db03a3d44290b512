import { useEffect, useState } from 'react';
import { useClient, useSchema } from 'sanity';
import { IntentLink, useRouter } from 'sanity/router';
import type { UserViewComponent } from 'sanity/structure';

import { SANITY_API_VERSION } from '@/lib/env/public';
import { isUpToDate, VERSION_TYPE } from '@/lib/policy/policy-record';
import { toSiteLanguages } from '@/lib/shared/languages';
import {
  translationId,
  translationStatus,
  type LanguageStatus,
  type PublishedDoc,
  type TranslationState,
} from '@/lib/shared/translation-status';

/**
 * The Translations view of each singleton: for every language in Site settings, whether this page has
 * its text, lacks it, or has one out of date; a missing one is made here, as a draft copy of the source
 * for the editor to translate. Published documents only: a draft is no text a reader gets. Whole ones, as a
 * translation without some of the source's words is incomplete.
 */

const QUERY = `{
  "settings": *[_id == "siteSettings"][0]{ languages[]{ tag, name, direction }, defaultLanguage, governingLanguage },
  "docs": *[_type == $type && !(_id in path("drafts.**")) && !(_id in path("versions.**"))],
  "version": *[_type == $versionType && !(_id in path("drafts.**")) && date == *[_id == $id][0].lastUpdated][0]{
    date, publishedAt, correctedAt, translations[]{ language, recordedAt }
  }
}`;

type Read = {
  settings: Parameters<typeof toSiteLanguages>[0];
  docs: PublishedDoc[];
  version: { date: string; publishedAt: string; correctedAt?: string; translations?: { language: string; recordedAt: string }[] } | null;
};

const SAYS: Record<TranslationState, string> = {
  source: 'Source: the default language',
  translated: 'Up to date',
  incomplete: 'Incomplete: readers get the default language in the fields it lacks',
  missing: 'Missing: readers get the default language',
  outdated: 'Out of date: the source was published again after it',
  waiting: 'Waiting: dated for a version not published yet',
};

/** What the record says of each language's text of the version in effect (policy-record.ts). */
const recordedOf = (version: Read['version']) =>
  version
    ? {
        date: version.date,
        upToDate: Object.fromEntries((version.translations ?? []).map((text) => [text.language, isUpToDate(version, text)])),
      }
    : undefined;

export const TranslationStatus: UserViewComponent = ({ documentId, document }) => {
  const client = useClient({ apiVersion: SANITY_API_VERSION });
  const router = useRouter();
  const type = document.displayed._type ?? documentId;
  const [rows, setRows] = useState<LanguageStatus[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const publishedRev = document.published?._rev;

  // Read again whenever this page is published: its translations' state follows the source's.
  useEffect(() => {
    let live = true;
    client.fetch<Read>(QUERY, { type, id: documentId, versionType: VERSION_TYPE }).then(
      ({ settings, docs, version }) => {
        if (live) setRows(translationStatus(toSiteLanguages(settings), docs, documentId, recordedOf(version)));
      },
      (error: unknown) => {
        if (live) setProblem(`The languages could not be read: ${String(error)}`);
      },
    );
    return () => {
      live = false;
    };
  }, [client, type, documentId, publishedRev]);

  const create = async (tag: string) => {
    const source = await client.getDocument(documentId);
    if (!source) return setProblem('Publish this page before translating it.');
    const { _id, _rev, _createdAt, _updatedAt, ...content } = source;
    const id = translationId(documentId, tag);
    await client.createIfNotExists({ ...content, _id: `drafts.${id}`, _type: type, language: tag });
    router.navigateIntent('edit', { id, type });
  };

  if (problem) return <p style={{ padding: 16 }}>{problem}</p>;
  if (!rows) return <p style={{ padding: 16 }}>Reading the languages…</p>;
  return <StatusTable rows={rows} type={type} create={(tag) => void create(tag).catch((error: unknown) => setProblem(String(error)))} />;
};

/** The title the Studio gives each field of `type`, by its name: how the editor knows the fields a translation lacks. */
function useFieldTitle(type: string): (name: string) => string {
  const schemaType = useSchema().get(type);
  const fields = schemaType && 'fields' in schemaType ? schemaType.fields : [];
  return (name) => fields.find((field) => field.name === name)?.type.title ?? name;
}

function StatusTable({ rows, type, create }: { rows: LanguageStatus[]; type: string; create: (tag: string) => void }) {
  const fieldTitle = useFieldTitle(type);
  return (
    <table style={{ margin: 16, borderCollapse: 'collapse' }} aria-label="Translations of this page">
      <thead>
        <tr>
          <th style={CELL}>Language</th>
          <th style={CELL}>Text</th>
          <th style={CELL}>Action</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(({ tag, name, state, id, missingFields }) => (
          <tr key={tag} data-state={state}>
            <td style={CELL}>
              {name} ({tag})
            </td>
            <td style={CELL}>
              {SAYS[state]}
              {missingFields.length > 0 ? <div data-missing-fields>Lacks: {missingFields.map(fieldTitle).join(', ')}</div> : null}
            </td>
            <td style={CELL}>
              {state === 'missing' ? (
                <button type="button" onClick={() => create(tag)}>
                  Translate into {name}
                </button>
              ) : state !== 'source' && id ? (
                <IntentLink intent="edit" params={{ id, type }}>
                  Open the {name} text
                </IntentLink>
              ) : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const CELL = { padding: '8px 12px', textAlign: 'start', borderBottom: '1px solid rgba(128,128,128,0.3)' } as const;
