import { getLocalPath, getSubscriptionCopy } from '@/lib/content';
import { LINK_RESULT_WORDS } from '@/lib/forms/subscription-copy';
import { readBody, REFUSAL_STATUS } from '@school-site/guards';
import { REFUSALS } from '@/lib/http/refusals';
import { ROUTES, TOKEN_PARAM, withToken } from '@/lib/shared/public-pages';
import { StoreError } from '@/lib/store/errors';
import type { LinkResult } from '@/lib/forms/form-state';
import { unsubscribe } from '@/lib/store/subscriptions';

import { pageLanguage } from '../../../../_components/page-language';

/**
 * RFC 8058's one-click unsubscribe: the URL of every email's List-Unsubscribe header, which a mail client
 * POSTs `List-Unsubscribe=One-Click` to from no page at all (proxy.ts lets such a post through to this
 * route alone). The token in the URL says who. The answer is plain text in the editor's words; nothing
 * here is cached, and a GET (a person who pasted the address) is sent to the page with the button.
 */

const ONE_CLICK_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];

const text = (body: string, status: number, extra: Record<string, string> = {}) =>
  new Response(`${body}\n`, { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...extra } });

/** Whether the body is the one-click form, in either encoding RFC 8058 allows. */
async function isOneClick(request: Request, bytes: Uint8Array<ArrayBuffer>): Promise<boolean> {
  const type = request.headers.get('content-type') ?? '';
  try {
    const form = await new Response(bytes, { headers: { 'content-type': type } }).formData();
    return form.get('List-Unsubscribe') === 'One-Click';
  } catch {
    return false;
  }
}

export async function POST(request: Request, { params }: RouteContext<'/[lang]/subscription/unsubscribe/one-click'>) {
  const type = request.headers.get('content-type') ?? '';
  if (!ONE_CLICK_TYPES.some((allowed) => type.startsWith(allowed))) return text(REFUSALS.notAForm.message, REFUSALS.notAForm.status);
  const body = await readBody(request);
  if (!body.ok) return text(REFUSALS.unreadable.message, REFUSAL_STATUS[body.refusal]);
  if (!(await isOneClick(request, body.bytes))) return text(REFUSALS.unreadable.message, REFUSALS.unreadable.status);
  const token = new URL(request.url).searchParams.get(TOKEN_PARAM) ?? '';
  let result: LinkResult;
  try {
    result = await unsubscribe(token);
  } catch (error) {
    if (!(error instanceof StoreError)) console.error('one-click unsubscribe failed unexpectedly', error);
    result = 'failed';
  }
  const { words } = await getSubscriptionCopy((await pageLanguage({ params })).tag);
  const [heading, detail] = LINK_RESULT_WORDS[result];
  return text(`${words[heading]}\n${words[detail]}`, STATUS[result] ?? 404, result === 'failed' ? { 'retry-after': '60' } : {});
}

/** The answer's status: done, or to be tried again later; anything else is a link that names no subscriber. */
const STATUS: Partial<Record<LinkResult, number>> = { unsubscribed: 200, failed: 503 };

export async function GET(request: Request, { params }: RouteContext<'/[lang]/subscription/unsubscribe/one-click'>) {
  const token = new URL(request.url).searchParams.get(TOKEN_PARAM) ?? '';
  const page = await getLocalPath((await pageLanguage({ params })).tag, ROUTES.unsubscribe);
  return new Response(null, { status: 303, headers: { location: withToken(page, token), 'cache-control': 'no-store' } });
}
