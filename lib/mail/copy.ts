import 'server-only';

import { createSanityClient } from '@/lib/content/client';
import { LANGUAGES_QUERY, SUBSCRIPTION_COPY_QUERY } from '@/lib/content/queries';
import { toSubscriptionCopy } from '@/lib/forms/subscription-copy';
import { serveLanguages, servedLanguage } from '@/lib/shared/language-gate';
import { toSiteLanguages } from '@/lib/shared/languages';

import { cachedMailCopy, forgetMailCopy, keepMailCopy, type MailCopy } from '@/lib/content/mail-copy-cache';

/**
 * How long the senders keep the emails' words. A publish of Site settings in this process drops them at
 * once (copy-cache.ts); another instance's senders take the publish within this.
 */
export const COPY_TTL_MS = 60_000;

let client: ReturnType<typeof createSanityClient> | undefined;

/** `language`: a served tag, or '' for the default language (whose documents name none). */
async function readCopy(language: string): Promise<MailCopy> {
  // The site's Sanity client (the hosted project, or the local lake in this process), outside any request:
  // published words, without Live or draft mode, which only a request has.
  const sanity = (client ??= createSanityClient());
  const options = { perspective: 'published', stega: false } as const;
  const [result, site] = await Promise.all([
    sanity.fetch(SUBSCRIPTION_COPY_QUERY, { language }, options),
    sanity.fetch(LANGUAGES_QUERY, {}, options).then(toSiteLanguages),
  ]);
  if (!result?.subscription) throw new Error('Site settings have no Subscription texts: the emails cannot be written');
  // The languages served now, read with the words: which subscribers' languages have pages is then known
  // before a page or the start's read has told this process, and another instance's publish of them
  // arrives within the TTL. They also name the default's tag and each language's direction.
  serveLanguages(site);
  // In the default language's words where the language has none yet: the email then says it is in those.
  const tag = language && !result.fallback.includes('subscription') ? language : site.defaultLanguage;
  const directionOf = (of: string) => site.languages.find((listed) => listed.tag === of)?.direction ?? 'ltr';
  return {
    language,
    writtenIn: { tag, direction: directionOf(tag) },
    recordIn: { tag: site.defaultLanguage, direction: directionOf(site.defaultLanguage) },
    productName: result.productName ?? '',
    words: toSubscriptionCopy(result),
  };
}

/**
 * The emails' words in a subscriber's `language` (the default language's for '', for its own tag and for
 * a language the site no longer serves), read at most once a COPY_TTL_MS per language; a failed read is
 * tried again at the next call.
 */
export function mailCopy(language = '', now = Date.now()): Promise<MailCopy> {
  const served = servedLanguage(language);
  const cached = cachedMailCopy(served);
  if (cached && now < cached.until) return cached.copy;
  const copy = readCopy(served);
  keepMailCopy(served, { until: now + COPY_TTL_MS, copy });
  copy.catch(() => {
    if (cachedMailCopy(served)?.copy === copy) forgetMailCopy(served);
  });
  return copy;
}
