import { after } from 'next/server';

import { readServedLanguages } from '@/lib/content/languages';
import { readFollowedPolicy } from '@/lib/content/read-policy';
import { followPolicy } from '@/lib/policy/policy-follow';
import { POLICY_ID } from '@/lib/policy/policy-record';
import { recordHostedPublish } from '@/lib/content/policy-record-hosted';
import { publishProblems } from '@/lib/content/publish-check';
import { tagsForDocumentType } from '@/lib/content/tags';
import { replayMemory } from '@/lib/content/replay-memory';
import { revalidateContent } from '@/lib/content/revalidate';
import { verifyWebhook, type WebhookRefusal } from '@/lib/content/webhook';
import { sanityConfig } from '@/lib/env/public';
import { translationLanguage } from '@/lib/shared/translation-status';
import { revalidateSecret } from '@/lib/env/server';
import { createRefusalLog } from '@/lib/http/refusal-log';

const seen = replayMemory();
const logRefusal = createRefusalLog<WebhookRefusal>('POST /api/revalidate');

/** Sanity's publish webhook (projection {_type, _id}): refreshes the pages that show the changed document. */
export async function POST(request: Request) {
  const result = await verifyWebhook(request, revalidateSecret(), { seen });
  if (!result.ok) {
    logRefusal(result.message);
    return Response.json({ message: result.message }, { status: result.status });
  }

  const tags = tagsForDocumentType(result.type);
  // Content that cannot be rendered must not replace good pages: refuse, so Sanity retries and the
  // pages keep their last good version until a fixed publish comes.
  const problems = (await Promise.all(tags.map(publishProblems))).flat();
  if (problems.length > 0) {
    await seen.forget(result.signature);
    console.error(
      `POST /api/revalidate: publish of ${result.type} not applied; the content cannot be rendered:\n  ${problems.join('\n  ')}`,
    );
    return Response.json(
      { message: 'The published content cannot be rendered; pages keep their last good version', problems },
      { status: 503, headers: { 'retry-after': '60' } },
    );
  }
  // On a hosted project the policy's record is this webhook's to keep (the embedded lake keeps its own).
  let recorded: string | undefined;
  if (result.type === POLICY_ID && sanityConfig()) {
    try {
      recorded = await recordHostedPublish();
    } catch (error) {
      await seen.forget(result.signature);
      console.error('POST /api/revalidate: the policy version could not be recorded; Sanity will send the webhook again', error);
      return Response.json({ message: 'The policy version could not be recorded' }, { status: 503, headers: { 'retry-after': '60' } });
    }
    if (recorded.startsWith('not recorded')) console.error(`POST /api/revalidate: policy version ${recorded}`);
  }
  // Sanity's webhook sends the document's type and id (its projection): a translation's id names its language.
  const language = result.id === null ? null : translationLanguage(result.id, result.type);
  const revalidated = revalidateContent([{ type: result.type, language }]);
  // The languages served (proxy.ts) follow a publish of the settings at once.
  if (result.type === 'siteSettings')
    after(() =>
      readServedLanguages().catch((error: unknown) => console.error('POST /api/revalidate: the languages could not be read', error)),
    );
  // The clock for the next version's day and the notices follow the record and the settings it reads.
  if (revalidated.includes('privacyPolicy') || result.type === 'siteSettings')
    after(() =>
      readFollowedPolicy()
        .then(followPolicy)
        .catch((error: unknown) => console.error('POST /api/revalidate: the policy could not be followed', error)),
    );
  return Response.json({ revalidated, ...(recorded ? { recorded } : {}), now: Date.now() });
}
