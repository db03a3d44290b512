import 'server-only';

import { CursorError } from '@/lib/store/page-cursor';
import { OFFICE_ENDPOINTS, parseDate, type OfficeEndpoint } from '@/lib/shared/back-office';

import { checkOfficeAccess, isRefusal } from './access';
import { NoHmacKey } from './address-hmac';
import { ENDPOINTS, type Endpoint } from './endpoints';
import { noticeCsv } from './notice-csv';
import { officeOf } from './office';
import { refuse } from './respond';

/**
 * One request to the back office (app/api/back-office/[...path]): who asks is checked first, for every
 * path, a made-up one included; then the endpoint its path names answers. No failure shows the store's
 * detail: that goes to the server's log.
 */

const KNOWN: ReadonlySet<string> = new Set(Object.values(OFFICE_ENDPOINTS));

/** The endpoint at `segments`: one of ENDPOINTS, or a version's CSV (notices/<date>/csv). */
function endpointAt(segments: string[]): Endpoint | undefined {
  const path = segments.join('/');
  if (KNOWN.has(path)) return ENDPOINTS[path as OfficeEndpoint];
  const [notices, date, csv, ...rest] = segments;
  if (notices !== OFFICE_ENDPOINTS.notices || csv !== 'csv' || rest.length > 0 || !parseDate(date).ok) return undefined;
  return { method: 'GET', handle: (office) => noticeCsv(office, date!) };
}

export async function officeAnswer(request: Request, segments: string[]): Promise<Response> {
  const access = await checkOfficeAccess(request);
  if (isRefusal(access)) return refuse(access.status, access.message);
  const endpoint = endpointAt(segments);
  if (!endpoint) return refuse(404, 'The back office has no such endpoint.');
  if (endpoint.method !== request.method) return refuse(405, `Ask this with ${endpoint.method}.`);
  if (endpoint.adminOnly && !access.admin) return refuse(403, 'Only an administrator may see this.');
  try {
    return await endpoint.handle(officeOf(access), request);
  } catch (error) {
    if (error instanceof CursorError) return refuse(400, 'That page cursor is not one of ours; start from the first page.');
    if (error instanceof NoHmacKey) {
      console.error(`back office: ${error.message}`);
      return refuse(503, 'The server is not set up to handle personal data yet (BACK_OFFICE_HMAC_KEY); ask whoever runs it.');
    }
    console.error(`back office: ${request.method} ${segments.join('/')} failed:`, error);
    return refuse(503, 'The store could not be reached; try again in a moment.');
  }
}
