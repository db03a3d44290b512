import 'server-only';

import type { SanityDocument } from 'sanity';

import { sanityConfig } from '@/lib/env/public';

import { createSanityClient } from './client';
import { localLake } from './local-lake';
import { plainTextRefusals } from '@/lib/shared/plain-text';
import { DOCUMENTS_OF_TYPES_QUERY } from './queries';
import { problemList } from './schema-check';
import { typesRefreshedBy, type ContentTag } from './tags';

/** How long the check waits for hosted Sanity before it counts the publish as unreadable. */
const HOSTED_TIMEOUT_MS = 10_000;

async function readPublished(types: string[]): Promise<SanityDocument[]> {
  if (!sanityConfig()) {
    // The file as it is now: a hand edit the local lake refuses (it keeps serving the last good content) is this publish's problem.
    const { lake } = await localLake();
    await lake.dataset.refresh();
    const problem = lake.dataset.problem();
    if (problem) throw new Error(problem);
  }
  // Straight from the API, not its CDN: the revision just published.
  return createSanityClient()
    .withConfig({ useCdn: false, timeout: HOSTED_TIMEOUT_MS })
    .fetch<SanityDocument[]>(DOCUMENTS_OF_TYPES_QUERY, { types });
}

/**
 * What would keep the pages that `tag` refreshes from rendering the published content: an unreadable
 * source (malformed dataset, Sanity failing or not answering), a missing singleton, or a document that
 * breaks the schema's rules or the text rule (plain-text.ts). Empty when the publish may go ahead.
 */
export async function publishProblems(tag: ContentTag): Promise<string[]> {
  const types = typesRefreshedBy(tag);
  let documents: SanityDocument[];
  try {
    documents = await readPublished(types);
  } catch (error) {
    return [`the content could not be read: ${error instanceof Error ? error.message : String(error)}`];
  }
  return [
    ...(await problemList(documents, types)),
    ...documents.flatMap((doc) => plainTextRefusals(doc).map((problem) => `${doc._type}: ${problem}`)),
  ];
}
