/**
 * The local Content Lake's one entry for servers and scripts (README.md). A browser loads ./browser.ts.
 */
export { admit, STREAM_HOST, type Caller } from './access.ts';
export type { Validate } from './actions.ts';
export { writeAtomically } from './atomic-file.ts';
export { Dataset, HAND_EDIT_IDENTITY } from './dataset.ts';
export { isContentId, isPublishedId, parseNdjson, type SanityDocument } from './documents.ts';
export { LakeError, lakeError, newId } from './errors.ts';
export { createHandler, type LakeHandler } from './handler.ts';
export { HISTORY_LAG_MS } from './history.ts';
export { Lake } from './lake.ts';
export { LAKE_PATH, lakeApiHost, localLakeFiles, LOCAL_EDITOR, LOCAL_PROJECT, LOCAL_TOKEN } from './local.ts';
export type { MutationResult } from './mutations.ts';
export { startContentLake, type RunningLake } from './node-server.ts';
export type { Perspective } from './perspectives.ts';
export { Presence } from './presence.ts';
export { userNamed } from './project-api.ts';
export { queryDocuments } from './queries.ts';
export { MAX_TIMER_MS } from './scheduler.ts';
export type { TransactionBuilder } from './transaction.ts';
export type { LakeOptions } from './lake.ts';
export type { Transaction } from './transaction.ts';
