'use client';

import { useFormStatus } from 'react-dom';

import { LINK_PAGE_WORDS, type LinkKind, type SubscriptionCopy } from '@/lib/forms/subscription-copy';
import { TOKEN_PARAM } from '@/lib/shared/public-pages';
import { LANGUAGE_FIELD } from '@/lib/forms/validation';
import type { LangAttrs } from '@/lib/shared/text-language';
import { confirmFromLink, unsubscribeFromLink } from '@/lib/support/subscription-actions';

import { primaryAction } from '../../_components/status-page';

const ACTIONS = { confirm: confirmFromLink, unsubscribe: unsubscribeFromLink } as const satisfies Record<LinkKind, unknown>;

type LinkFormProps = { kind: LinkKind; token: string; copy: SubscriptionCopy; lang?: LangAttrs; language: string };

function Submit({ label, pendingLabel, lang }: { label: string; pendingLabel: string; lang?: LangAttrs }) {
  const { pending } = useFormStatus();
  return (
    <button {...lang} type="submit" disabled={pending} className={`${primaryAction} disabled:opacity-70`}>
      {pending ? pendingLabel : label}
    </button>
  );
}

/**
 * The page an email's link opens: what pressing the button will do, and the button, a form that posts
 * the link's token to its action, with or without JavaScript; the answer is the page it redirects to,
 * in the page's `language`. `lang`: the default language's attributes where the words are in it on a page in another.
 */
export function LinkForm({ kind, token, copy, lang, language }: LinkFormProps) {
  const words = LINK_PAGE_WORDS[kind];
  return (
    <form action={ACTIONS[kind]} className="mt-8">
      <input type="hidden" name={TOKEN_PARAM} value={token} />
      <input type="hidden" name={LANGUAGE_FIELD} value={language} />
      <Submit label={copy[words.button]} pendingLabel={copy.pendingLabel} lang={lang} />
    </form>
  );
}
