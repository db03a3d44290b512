import { randomBytes } from 'node:crypto';

/** An HTTP answer other than 2xx: the status and Sanity's body for it. */
export class LakeError extends Error {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Record<string, string>;

  constructor(status: number, body: unknown, message = JSON.stringify(body), headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}

/** API-gateway errors: {statusCode, error, message}. */
export const httpError = (status: number, error: string, message: string) =>
  new LakeError(status, { statusCode: status, error, message }, message);

/** Content Lake errors: {error: {type, description, …}}. */
export const lakeError = (status: number, type: string, description: string, extra: Record<string, unknown> = {}) =>
  new LakeError(status, { error: { ...extra, type, description } }, description);

/** A failed item of a transaction, as the Mutations and Actions APIs report it. */
export function itemError(kind: 'mutationError' | 'actionError', index: number, type: string, description: string, status = 409) {
  const summary = kind === 'mutationError' ? 'Mutation(s) failed with 1 error(s)' : description;
  return lakeError(status, kind, summary, { items: [{ error: { type, description }, index }] });
}

/** Ids the way Sanity makes them: random, URL- and path-safe. */
export const newId = (bytes = 16) => randomBytes(bytes).toString('base64url').replace(/[-_]/g, 'x');
