import {
  noticeCsvPath,
  OFFICE_ENDPOINTS,
  officePath,
  parseAddressBody,
  parseCursorBody,
  parseListRequests,
  parseMark,
  parseRecipients,
  parseTold,
  type AccessEntry,
  type Erased,
  type Me,
  type NoticeRecipient,
  type NoticeVersion,
  type NothingHeld,
  type OfficeFailure,
  type OfficeRequest,
  type OfficeSubscriber,
  type Page,
  type Parsed,
  type PersonData,
  type RequestFilter,
  type SubscriberCount,
  type Told,
} from '@/lib/shared/back-office';

import { attachmentName, saveBlob } from './download';

/**
 * The one way the tool reaches the site's back office API (app/api/back-office), on the Studio's own
 * origin. On the embedded default the server admits this machine's browser and needs nothing more; with
 * a Sanity project it asks Sanity who the editor is from the token the Studio's login keeps in
 * localStorage, sent as a Bearer token. What is sent is checked with the server's own rules first.
 */

export type OfficeAccess = { hosted: false } | { hosted: true; projectId: string };

/** Why a call failed, as the tool words it; `no-token` is a hosted session that began on a cookie alone. */
export type FailureKind =
  'no-token' | 'unauthorized' | 'forbidden' | 'busy' | 'unavailable' | 'not-found' | 'invalid' | 'network' | 'failed';

export class OfficeError extends Error {
  constructor(
    readonly kind: FailureKind,
    readonly status: number | null,
    message: string,
    readonly busyUntil?: string,
  ) {
    super(message);
    this.name = 'OfficeError';
  }
}

const KIND_OF_STATUS: Record<number, FailureKind> = {
  400: 'invalid',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not-found',
  409: 'busy',
  503: 'unavailable',
};

// Where Sanity's login (5.30 and later, `dual` or `token`) keeps the editor's token, as JSON `{ token }`.
const TOKEN_KEY_PREFIX = '__studio_auth_token_';

function storedToken(projectId: string): string | null {
  try {
    const stored = JSON.parse(localStorage.getItem(`${TOKEN_KEY_PREFIX}${projectId}`) ?? 'null') as { token?: unknown } | null;
    return typeof stored?.token === 'string' && stored.token ? stored.token : null;
  } catch {
    return null;
  }
}

function authorization(access: OfficeAccess): Record<string, string> {
  if (!access.hosted) return {};
  const token = storedToken(access.projectId);
  if (!token) throw new OfficeError('no-token', null, 'This session has no token to send.');
  return { Authorization: `Bearer ${token}` };
}

/** The body, once the shared rules accept it; else the failure the server would answer, without asking it. */
function checked<T>(parsed: Parsed<T>): T {
  if (!parsed.ok) throw new OfficeError('invalid', null, parsed.message);
  return parsed.value;
}

async function failure(response: Response): Promise<OfficeError> {
  const body = (await response.json().catch(() => ({}))) as Partial<OfficeFailure>;
  const kind = KIND_OF_STATUS[response.status] ?? 'failed';
  return new OfficeError(kind, response.status, typeof body.message === 'string' ? body.message : response.statusText, body.busyUntil);
}

async function call(access: OfficeAccess, path: string, body?: unknown): Promise<Response> {
  const headers = { ...authorization(access), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) };
  const init: RequestInit = { method: body === undefined ? 'GET' : 'POST', headers, credentials: 'same-origin', cache: 'no-store' };
  let response: Response;
  try {
    response = await fetch(path, body === undefined ? init : { ...init, body: JSON.stringify(body) });
  } catch (error) {
    throw new OfficeError('network', null, String(error));
  }
  if (!response.ok) throw await failure(response);
  return response;
}

const json = async <T>(access: OfficeAccess, path: string, body?: unknown): Promise<T> =>
  (await call(access, path, body)).json() as Promise<T>;

async function download(access: OfficeAccess, path: string, fallbackName: string, body?: unknown): Promise<void> {
  const response = await call(access, path, body);
  saveBlob(await response.blob(), attachmentName(response.headers.get('Content-Disposition'), fallbackName));
}

const address = (email: string) => checked(parseAddressBody({ email }));

/** The back office's endpoints, each a typed call; a refusal is always a rejected promise, never a throw. */
export function officeApi(access: OfficeAccess) {
  const E = OFFICE_ENDPOINTS;
  return {
    me: async () => json<Me>(access, officePath(E.me)),
    requests: async (filter: RequestFilter, cursor: string | null) =>
      json<Page<OfficeRequest>>(access, officePath(E.requests), checked(parseListRequests({ filter, cursor }))),
    mark: async (id: string, answered: boolean) =>
      json<OfficeRequest>(access, officePath(E.markRequest), checked(parseMark({ id, answered }))),
    subscriberCounts: async () => json<SubscriberCount[]>(access, officePath(E.subscriberCounts)),
    findSubscriber: async (email: string) => json<OfficeSubscriber | null>(access, officePath(E.findSubscriber), address(email)),
    notices: async () => json<NoticeVersion[]>(access, officePath(E.notices)),
    recipients: async (date: string, cursor: string | null) =>
      json<Page<NoticeRecipient>>(access, officePath(E.recipients), checked(parseRecipients({ date, cursor }))),
    noticeCsv: async (date: string) => download(access, noticeCsvPath(date), `notice-${date}.csv`),
    told: async (date: string, email: string) => json<Told>(access, officePath(E.told), checked(parseTold({ date, email }))),
    person: async (email: string) => json<PersonData | NothingHeld>(access, officePath(E.person), address(email)),
    exportPerson: async (email: string) => download(access, officePath(E.exportPerson), 'person-data.json', address(email)),
    erase: async (email: string) => json<Erased | NothingHeld>(access, officePath(E.erasePerson), address(email)),
    accessLog: async (cursor: string | null) =>
      json<Page<AccessEntry>>(access, officePath(E.accessLog), checked(parseCursorBody({ cursor }))),
  };
}

export type OfficeApi = ReturnType<typeof officeApi>;

export const isNothingHeld = (answer: object): answer is NothingHeld => 'nothingHeld' in answer;
