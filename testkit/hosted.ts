import { createClient } from '@sanity/client';

import { SANITY_API_VERSION } from '../lib/env/public.ts';
import { startContentLake, type ContentLakeOptions } from './content-lake/server.ts';
import { lakeTls } from './lake-tls.ts';
import { SEED_FILE } from './paths.ts';

/**
 * The hosted content path with no account: the site configured for a Sanity project whose Content Lake
 * is the local stand-in (testkit/content-lake). One place for the settings the build, the browser tests,
 * `npm run dev:lake` and the measuring script share. The lake's port is fixed per run because
 * SANITY_API_HOST is inlined into the browser bundles at build time.
 */
export const LAKE_PORT = Number(process.env.LAKE_PORT || 4555);
// localhost, not 127.0.0.1: the Studio puts the project id before the API's host, and browsers resolve
// lake.localhost to this machine, while lake.127.0.0.1 is no valid URL host. HTTPS, as Sanity's API: with
// HTTP/2 the Studio's many listener streams share one connection (lake-tls.ts).
export const LAKE_ORIGIN = `https://localhost:${LAKE_PORT}`;
export const LAKE_PROJECT = { projectId: 'lake', dataset: 'production' } as const;
/** The one token the stand-in accepts: a Viewer token for the server and, in draft mode, the browser. */
export const LAKE_TOKEN = 'lake-viewer-token';
/** A second editor's token: signed in, with a role (`editor`) the back office does not admit by default. */
export const LAKE_EDITOR_TOKEN = 'lake-editor-token';
export const LAKE_USERS = { [LAKE_EDITOR_TOKEN]: { id: 'lake-editor', name: 'Edith Editor', roles: ['editor'] } };
/** The hosted build's own folder, beside the embedded one in .next. */
export const HOSTED_DIST_DIR = '.next-hosted';

/** The environment of a site built and served against the stand-in. */
export function hostedEnv(): Record<string, string> {
  return {
    NEXT_PUBLIC_SANITY_PROJECT_ID: LAKE_PROJECT.projectId,
    NEXT_PUBLIC_SANITY_DATASET: LAKE_PROJECT.dataset,
    SANITY_API_HOST: LAKE_ORIGIN,
    SANITY_API_READ_TOKEN: LAKE_TOKEN,
    SANITY_API_RECORD_TOKEN: LAKE_TOKEN,
    NODE_EXTRA_CA_CERTS: lakeTls().certFile,
  };
}

/** The stand-in as the hosted build, its tests and scripts use it: the seed, on LAKE_PORT, over HTTPS, with the token. */
export function startHostedLake(options: ContentLakeOptions = {}) {
  return startContentLake({ file: SEED_FILE, port: LAKE_PORT, token: LAKE_TOKEN, users: LAKE_USERS, tls: lakeTls(), ...options });
}

/** A client of the stand-in with its token, writing as the Studio does. */
export function lakeClient(apiHost = LAKE_ORIGIN) {
  return createClient({
    ...LAKE_PROJECT,
    apiHost,
    useProjectHostname: false,
    apiVersion: SANITY_API_VERSION,
    token: LAKE_TOKEN,
    useCdn: false,
  });
}
