/**
 * The lake's HTTP API as one fetch handler (Request in, Response out): the site's route at /api/lake, the
 * Node server of the tests and `npm run dev:lake`, and the site's own in-process client all call it. Paths
 * are Sanity's, behind /v<apiVersion>. Every failure is answered in Sanity's error shape; a request the lake
 * cannot make sense of gets a 4xx, never a 500.
 */
import { admit, corsHeaders, originAllowed, type Caller } from './access.ts';
import { actionsEndpoint, docEndpoint, exportEndpoint, mutateEndpoint, queryEndpoint, readJson, referencesEndpoint } from './data-api.ts';
import { LakeError, httpError } from './errors.ts';
import { historyEndpoint } from './history-api.ts';
import type { Lake } from './lake.ts';
import { projectAnswer } from './project-api.ts';
import { openReleases } from './releases.ts';
import { json, type DataRequest } from './request.ts';
import { listenEndpoint, liveEndpoint } from './stream-api.ts';

export type LakeHandler = (request: Request, caller: Caller) => Promise<Response>;

const VERSIONED = /^\/v(\d{4}-\d{2}-\d{2}|1|X)(\/.*)$/;
const DATA = /^\/data\/(query|doc|mutate|actions|listen|live\/events|history|references|export)\/([^/]+)(?:\/(.*))?$/;
const METHODS: Record<string, string[]> = { query: ['GET', 'POST'], mutate: ['POST'], actions: ['POST'] };

const ENDPOINTS: Record<string, (request: DataRequest, lake: Lake) => Response | Promise<Response>> = {
  query: queryEndpoint,
  doc: docEndpoint,
  mutate: mutateEndpoint,
  actions: actionsEndpoint,
  listen: (request, lake) => listenEndpoint(request, lake.options.access),
  'live/events': (request, lake) => liveEndpoint(request, lake.options.access),
  history: historyEndpoint,
  references: referencesEndpoint,
  export: exportEndpoint,
};

/** The CORS preflight: allowed origins get every method and the headers they ask for. */
function preflight(lake: Lake, request: Request, caller: Caller): Response {
  const origin = request.headers.get('origin');
  if (origin === null || !originAllowed(lake.options.access, request, origin))
    throw httpError(403, 'Forbidden', `Origin ${origin} is not allowed`);
  if (lake.options.access.kind === 'local') admit(lake.options.access, request, caller);
  return new Response(null, {
    status: 204,
    headers: {
      ...corsHeaders(lake.options.access, request),
      'access-control-allow-methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
      'access-control-allow-headers': request.headers.get('access-control-request-headers') ?? 'Authorization, Content-Type',
      'access-control-max-age': '600',
    },
  });
}

/** What @sanity/client's live.events() asks when its EventSource fails: is the page's origin allowed? */
function corsCheck(lake: Lake, request: Request): Response {
  const referer = request.headers.get('referer');
  const asking = request.headers.get('origin') ?? (referer && URL.canParse(referer) ? new URL(referer).origin : undefined);
  const ok = asking === undefined || originAllowed(lake.options.access, request, asking);
  return json({ result: { allowed: ok, withCredentials: ok } }, corsHeaders(lake.options.access, request));
}

async function route(lake: Lake, request: Request, caller: Caller, path: string, url: URL): Promise<Response> {
  if (request.method === 'OPTIONS') return preflight(lake, request, caller);
  const [, apiVersion, rest] = VERSIONED.exec(path) ?? [];
  if (apiVersion === undefined || rest === undefined) throw httpError(404, 'Not Found', `No endpoint at ${url.pathname}`);
  if (rest === '/check/cors') return corsCheck(lake, request);
  const admission = admit(lake.options.access, request, caller);
  const { authenticated, cors } = admission;
  const user = admission.user ?? (authenticated || lake.options.access.kind === 'local' ? lake.options.user : undefined);
  const context = {
    method: request.method,
    projectId: lake.projectId,
    dataset: lake.datasetName,
    user,
    author: (id: string) => lake.dataset.history.author(id),
    body: () => readJson(request),
    openReleases: () => openReleases(lake.dataset.documents()),
  };
  const answer = await projectAnswer(rest, context);
  if (answer) return json(answer.body, cors, answer.status);

  const [, endpoint, dataset, tail] = DATA.exec(rest) ?? [];
  if (endpoint === undefined || (tail !== undefined && !['doc', 'history', 'references'].includes(endpoint)))
    throw httpError(404, 'Not Found', `No endpoint at ${url.pathname}`);
  const project = request.headers.get('x-sanity-project-id');
  if (project !== null && project !== lake.projectId && lake.options.projectId !== undefined)
    throw httpError(404, 'Not Found', `Project ID "${project}" not found`);
  if (dataset !== lake.datasetName) throw httpError(404, 'Not Found', `Dataset "${dataset}" not found for project ID "${lake.projectId}"`);
  if (!(METHODS[endpoint] ?? ['GET']).includes(request.method))
    throw httpError(405, 'Method Not Allowed', `${request.method} is not allowed on ${url.pathname}`);
  // A hand edit of the file shows in every answer from now on.
  await lake.dataset.refresh();
  return ENDPOINTS[endpoint]!({ lake, request, url, cors, apiVersion, authenticated, rest: tail ?? '' }, lake);
}

/** The handler of `lake`, for requests whose path starts with `basePath` (the part Sanity's API does not have). */
export function createHandler(lake: Lake, basePath = ''): LakeHandler {
  return async (request, caller) => {
    const url = new URL(request.url);
    const path = url.pathname.startsWith(basePath) ? url.pathname.slice(basePath.length) : url.pathname;
    try {
      return await route(lake, request, caller, path, url);
    } catch (error) {
      const failure =
        error instanceof LakeError
          ? error
          : httpError(500, 'Internal Server Error', `The local Content Lake failed: ${(error as Error)?.message}`);
      if (failure.status >= 500) console.error('content lake:', error);
      return json(failure.body, { ...corsHeaders(lake.options.access, request), ...failure.headers }, failure.status);
    }
  };
}
