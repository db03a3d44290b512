import { getPolicyFeed } from '@/lib/content';

/** The Atom feed of the policy's versions and announcements (lib/content/policy-feed.ts), cached and refreshed with the policy. */
export async function GET() {
  return new Response(await getPolicyFeed(), { headers: { 'content-type': 'application/atom+xml; charset=utf-8' } });
}
