import { notFound } from 'next/navigation';

import { getSettings, getSubscriptionCopy } from '@/lib/content';
import { LINK_RESULT_WORDS } from '@/lib/forms/subscription-copy';
import { isLinkResult, LINK_RESULTS } from '@/lib/forms/form-state';

import { HomeButton, NOT_INDEXED, SubscriptionFrame } from '../../../_components/link-page';
import { pageLanguage } from '../../../_components/page-language';

/** Each answer a link of the emails can come to is prerendered; proxy.ts sends any other name to the 404. */
export function generateStaticParams() {
  return LINK_RESULTS.map((result) => ({ result }));
}

async function words(language: string, result: string) {
  if (!isLinkResult(result)) notFound();
  const copy = await getSubscriptionCopy(language);
  const [heading, text] = LINK_RESULT_WORDS[result];
  return { heading: copy.words[heading], text: copy.sentences[text], lang: copy.lang };
}

export async function generateMetadata({ params }: PageProps<'/[lang]/subscription/[result]'>) {
  const { tag } = await pageLanguage({ params });
  return { title: (await words(tag, (await params).result)).heading, robots: NOT_INDEXED };
}

/** What following a link came to (lib/support/subscription-actions.ts redirects here), in the editor's words. */
export default async function LinkResultPage({ params }: PageProps<'/[lang]/subscription/[result]'>) {
  const { tag } = await pageLanguage({ params });
  const [{ heading, text, lang }, settings] = await Promise.all([words(tag, (await params).result), getSettings(tag)]);
  return (
    <SubscriptionFrame heading={heading} text={text} lang={lang}>
      <HomeButton label={settings.chrome.backHome} href={settings.home.href} lang={settings.chrome.langOf.backHome} />
    </SubscriptionFrame>
  );
}
