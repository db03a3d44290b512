'use client';

import { useActionState, useEffect, useRef } from 'react';

import { LINK_PAGE_WORDS, LINK_RESULT_WORDS, type LinkKind, type SubscriptionCopy } from '@/lib/content/subscription-copy';
import { ROUTES, TOKEN_PARAM, withToken } from '@/lib/public-pages';
import { IDLE, type LinkState } from '@/lib/support/form-state';
import { messageText, type MessageCopy } from '@/lib/support/messages';
import { confirmFromLink, unsubscribeFromLink } from '@/lib/support/subscription-actions';

import { primaryAction, secondaryAction } from '../../_components/status-page';

/** What each page's button does, and where the form posts without JavaScript (the page itself, token and all). */
const ACTIONS = {
  confirm: { action: confirmFromLink, route: ROUTES.confirm },
  unsubscribe: { action: unsubscribeFromLink, route: ROUTES.unsubscribe },
} as const satisfies Record<LinkKind, unknown>;

type Props = {
  kind: LinkKind;
  /** The link's token, or null when the link has none the database could have made: then the page answers at once. */
  token: string | null;
  copy: SubscriptionCopy;
  messages: MessageCopy;
  homeLabel: string;
};

/**
 * The page an email's link opens: what pressing the button will do, and the button, a form that posts
 * the token (with or without JavaScript); then the answer in its place, its heading focused so that a
 * screen reader reads it.
 */
export function LinkForm({ kind, token, copy, messages, homeLabel }: Props) {
  const { action, route } = ACTIONS[kind];
  const words = LINK_PAGE_WORDS[kind];
  const [state, formAction, pending] = useActionState<LinkState, FormData>(action, IDLE, token ? withToken(route, token) : route);
  const answered = token === null ? 'invalid' : state.status === 'done' ? state.result : null;
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (state.status === 'done') headingRef.current?.focus();
  }, [state]);

  const [title, text] = answered ? LINK_RESULT_WORDS[answered].map((key) => copy[key]) : [copy[words.heading], copy[words.intro]];
  return (
    <div className="flex flex-1 items-center justify-center px-4 py-20">
      <div className="w-full max-w-md text-center">
        <h1 ref={headingRef} tabIndex={-1} className="text-3xl font-bold tracking-tight focus:outline-none sm:text-4xl">
          {title}
        </h1>
        <p className="mt-4 text-muted">{text}</p>
        {answered ? (
          <a href={ROUTES.home} className={`mt-8 inline-block ${secondaryAction}`}>
            {homeLabel}
          </a>
        ) : (
          <form action={formAction} className="mt-8">
            <input type="hidden" name={TOKEN_PARAM} value={token ?? ''} />
            <button type="submit" disabled={pending} className={`${primaryAction} disabled:opacity-70`}>
              {pending ? copy.pendingLabel : copy[words.button]}
            </button>
            <p role="status" aria-live="polite" className="mt-3 min-h-6 text-sm font-medium text-red-700">
              {!pending && state.status === 'error' ? messageText(messages, state.message) : null}
            </p>
          </form>
        )}
      </div>
    </div>
  );
}
