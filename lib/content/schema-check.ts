import { createClient } from '@sanity/client';
import { createWorkspaceFromConfig, validateDocument, type SanityDocument, type ValidationMarker, type Workspace } from 'sanity';

import { schemaTypes } from '@/schemas';

/**
 * The schema's validation rules, run by Sanity's own engine the way `sanity documents validate` runs
 * them, outside any Studio: the publish webhook checks content with it before pages change, and the
 * schema tests use it too.
 */

let workspace: Promise<Workspace> | undefined;

function offlineWorkspace(): Promise<Workspace> {
  // With getClient and currentUser, createWorkspaceFromConfig needs no login and makes no requests.
  const client = createClient({ projectId: 'offline', dataset: 'production', apiVersion: '2025-01-01', useCdn: false });
  return (workspace ??= createWorkspaceFromConfig({
    projectId: 'offline',
    dataset: 'production',
    schema: { types: schemaTypes },
    getClient: () => client,
    currentUser: { id: 'validator', name: 'Validator', email: 'validator@localhost', role: 'administrator', roles: [] },
  }));
}

/**
 * Loads the engine ahead of the first publish (instrumentation.ts, in the background): loading Sanity's
 * packages and building the workspace takes over a second, which the first webhook would otherwise wait.
 */
export async function warmSchemaCheck(): Promise<void> {
  await offlineWorkspace();
}

export async function validateContent(document: SanityDocument): Promise<ValidationMarker[]> {
  return validateDocument({ document, workspace: await offlineWorkspace(), environment: 'cli', getDocumentExists: async () => true });
}

/** A marker's path written like `cards[_key=="k1"].requestType`. */
export function markerPath(marker: ValidationMarker): string {
  return marker.path
    .map((segment) =>
      typeof segment === 'object' && segment !== null && '_key' in segment ? `[_key=="${segment._key}"]` : `.${String(segment)}`,
    )
    .join('')
    .replace(/^\./, '');
}

type Doc = { _id: string; _type: string; language?: unknown };

/**
 * A translation may lack a field the default language's document has (one added to the schema after it was
 * translated, or one only the default's holds, such as the settings' numbers): the page shows the default's
 * words there, marked with their language, and the Studio's Translations view counts it as incomplete. So
 * in a translation a rule about a missing value stops no publish and no start of the lake; a value it has
 * is checked as any other.
 */
const isTranslation = (document: Doc) => typeof document.language === 'string' && document.language !== '';

/** The value at a marker's path in `document`; undefined where the document has none. */
function valueAt(document: unknown, path: ValidationMarker['path']): unknown {
  let value = document;
  for (const segment of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value =
      typeof segment === 'object' && segment !== null && '_key' in segment
        ? (value as { _key?: unknown }[]).find?.((item) => item?._key === segment._key)
        : (value as Record<string, unknown>)[String(segment)];
  }
  return value;
}

/**
 * What keeps each of `types` from rendering in `documents` (published documents): the singleton is
 * missing (unless `documents` are only some of the dataset's: one being published), or breaks the
 * schema's rules. Types with nothing wrong are left out.
 */
export async function problemsByType(documents: readonly Doc[], types: readonly string[], whole = true): Promise<Map<string, string[]>> {
  const problems = new Map<string, string[]>();
  for (const type of types) {
    const ofType = documents.filter((document) => document._type === type);
    // The default language's document: its translations render only beside it.
    const found: string[] =
      !whole || ofType.some((document) => !('language' in document) || !document.language) ? [] : ['the document is missing'];
    for (const document of ofType) {
      const errors = (await validateContent(document as SanityDocument)).filter(
        (marker) => marker.level === 'error' && !(isTranslation(document) && valueAt(document, marker.path) === undefined),
      );
      found.push(...errors.map((marker) => `${markerPath(marker) || '(document)'}: ${marker.message}`));
    }
    if (found.length > 0) problems.set(type, found);
  }
  return problems;
}

/** problemsByType as one list, each problem prefixed with its type: what a refusal or a log line says. */
export async function problemList(documents: readonly Doc[], types: readonly string[]): Promise<string[]> {
  return [...(await problemsByType(documents, types))].flatMap(([type, problems]) => problems.map((problem) => `${type}: ${problem}`));
}
