import { notFound } from 'next/navigation';

import { getSettings, getSubscriptionCopy } from '@/lib/content';
import { LINK_RESULT_WORDS } from '@/lib/forms/subscription-copy';
import { isLinkResult, LINK_RESULTS } from '@/lib/forms/form-state';

import { HomeButton, NOT_INDEXED, SubscriptionFrame } from '../../_components/link-page';

/** Each answer a link of the emails can come to is prerendered; proxy.ts sends any other name to the 404. */
export function generateStaticParams() {
  return LINK_RESULTS.map((result) => ({ result }));
}

async function words(result: string) {
  if (!isLinkResult(result)) notFound();
  const copy = await getSubscriptionCopy();
  const [heading, text] = LINK_RESULT_WORDS[result];
  return { heading: copy[heading], text: copy[text] };
}

export async function generateMetadata({ params }: PageProps<'/subscription/[result]'>) {
  return { title: (await words((await params).result)).heading, robots: NOT_INDEXED };
}

/** What following a link came to (lib/support/subscription-actions.ts redirects here), in the editor's words. */
export default async function LinkResultPage({ params }: PageProps<'/subscription/[result]'>) {
  const [{ heading, text }, settings] = await Promise.all([words((await params).result), getSettings()]);
  return (
    <SubscriptionFrame heading={heading} text={text}>
      <HomeButton label={settings.chrome.backHome} />
    </SubscriptionFrame>
  );
}
