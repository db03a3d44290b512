import 'server-only';

import {
  accessLog,
  findSubscriber,
  listRequests,
  logAccess,
  markRequest,
  noticeRecipients,
  noticeVersions,
  subscriberCounts,
  wasTold,
} from '@/lib/store/back-office';
import {
  parseAddressBody,
  parseCursorBody,
  parseListRequests,
  parseMark,
  parseRecipients,
  parseTold,
  type AccessEntry,
  type Me,
  type NoticeRecipient,
  type NoticeVersion,
  type OfficeEndpoint,
  type OfficeRequest,
  type OfficeSubscriber,
  type Page,
  type Parsed,
  type SubscriberCount,
  type Told,
} from '@/lib/shared/back-office';

import { addressHmac } from './address-hmac';
import type { Office } from './office';
import { erase, exportPerson, showPerson } from './person';
import { readJson } from './read-json';
import { answer, refuse } from './respond';

/**
 * Each endpoint of the back office (lib/shared/back-office.ts names them): its method, whether only an
 * administrator may ask, and what it does. A POST's body is read and checked before anything runs.
 */

export type Handler = (office: Office, request: Request) => Promise<Response>;
export type Endpoint = { method: 'GET' | 'POST'; handle: Handler; adminOnly?: true };

const get = (run: (office: Office) => Promise<unknown>): Endpoint => ({
  method: 'GET',
  handle: async (office) => answer(await run(office)),
});

function post<T>(parse: (body: unknown) => Parsed<T>, run: (office: Office, input: T) => Promise<Response>): Endpoint {
  return {
    method: 'POST',
    handle: async (office, request) => {
      const body = await readJson(request);
      if (!body.ok) return refuse(body.status, body.message);
      const input = parse(body.value);
      return input.ok ? run(office, input.value) : refuse(400, input.message);
    },
  };
}

/** A read of one address's data, logged by its HMAC with how many rows it found. */
async function readOf<T>(office: Office, email: string, read: (hmac: string) => Promise<T>, rows: (found: T) => number): Promise<T> {
  const subject = await addressHmac(email);
  const found = await read(subject);
  await logAccess({ actor: office.actor, action: 'read', rows: rows(found), subject });
  return found;
}

export const ENDPOINTS: Record<OfficeEndpoint, Endpoint> = {
  me: get(async ({ officer, admin }) => ({ officer, admin }) satisfies Me),
  'requests/list': post(parseListRequests, async (_, { filter, cursor, limit }) =>
    answer((await listRequests(filter, cursor, limit)) satisfies Page<OfficeRequest>),
  ),
  'requests/mark': post(parseMark, async (office, { id, answered }) => {
    const marked = await markRequest(id, answered, office.actor);
    return marked ? answer(marked satisfies OfficeRequest) : refuse(404, 'There is no such request (it may have been erased).');
  }),
  'subscribers/counts': get(async () => (await subscriberCounts()) satisfies SubscriberCount[]),
  'subscribers/find': post(parseAddressBody, async (office, { email }) =>
    answer(
      (await readOf(
        office,
        email,
        () => findSubscriber(email),
        (found) => (found ? 1 : 0),
      )) satisfies OfficeSubscriber | null,
    ),
  ),
  notices: get(async () => (await noticeVersions()) satisfies NoticeVersion[]),
  'notices/recipients': post(parseRecipients, async (_, { date, cursor, limit }) =>
    answer((await noticeRecipients(date, cursor, limit)) satisfies Page<NoticeRecipient>),
  ),
  'notices/told': post(parseTold, async (office, { date, email }) =>
    answer(
      (await readOf(
        office,
        email,
        (hmac) => wasTold(date, email, hmac),
        ({ told }) => (told ? 1 : 0),
      )) satisfies Told,
    ),
  ),
  person: post(parseAddressBody, (office, { email }) => showPerson(office, email)),
  'person/export': post(parseAddressBody, (office, { email }) => exportPerson(office, email)),
  'person/erase': post(parseAddressBody, (office, { email }) => erase(office, email)),
  'access-log': {
    ...post(parseCursorBody, async (_, { cursor, limit }) => answer((await accessLog(cursor, limit)) satisfies Page<AccessEntry>)),
    adminOnly: true,
  },
};
