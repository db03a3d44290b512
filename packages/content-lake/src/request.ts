/**
 * What every endpoint of the lake's HTTP API shares (data-api.ts, history-api.ts, stream-api.ts): the request
 * as the handler routed it, its answer as JSON, and document ids read from the path.
 */
import { httpError } from './errors.ts';
import type { Lake } from './lake.ts';

export type DataRequest = {
  lake: Lake;
  request: Request;
  url: URL;
  cors: Record<string, string>;
  apiVersion: string;
  authenticated: boolean;
  /** The path after the dataset. */
  rest: string;
};

export const json = (body: unknown, headers: Record<string, string>, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { ...headers, 'content-type': 'application/json; charset=utf-8' } });

export function decodeId(id: string): string {
  try {
    return decodeURIComponent(id);
  } catch {
    throw httpError(400, 'Bad Request', `"${id}" is not a valid document id`);
  }
}
