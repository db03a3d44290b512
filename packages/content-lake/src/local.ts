/**
 * The embedded default's Sanity "project": the site, its Studio and Presentation all talk to the local
 * Content Lake that the site's own server answers at /api/lake (app/api/lake). Safe for the browser.
 */
export const LOCAL_PROJECT = { projectId: 'local', dataset: 'production' } as const;

/** Where the site's server answers the lake's API; Sanity's paths (/v<apiVersion>/…) follow. */
export const LAKE_PATH = '/api/lake';

/** The lake on the origin a page was loaded from: the Studio's and the preview's API host. */
export const lakeApiHost = (origin: string) => `${origin.replace(/\/+$/, '')}${LAKE_PATH}`;

/**
 * The embedded lake's own files in DATA_DIR, beside the content in CONTENT_FILE: draft mode's secrets and
 * the history log. The server and `npm run content -- versions` open the same ones.
 */
export const localLakeFiles = (dataDir: string) => ({
  systemFile: `${dataDir}/content-lake/system.ndjson`,
  history: { file: `${dataDir}/content-lake/history.ndjson` },
});

/**
 * What the site's clients send as a token on the embedded default, where a token means nothing: the lake
 * trusts this machine instead (packages/content-lake/src/access.ts). next-sanity needs a string to ask for drafts.
 */
export const LOCAL_TOKEN = 'local-lake';

/** Whoever passes the local lake's rule (the editor at this machine): its History names them so, and so does the back office. */
export const LOCAL_EDITOR = { id: 'local-editor', name: 'Local editor' } as const;
