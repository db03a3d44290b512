import type { ReactNode } from 'react';

import type { ErrorCopy, NotFoundCopy } from '@/lib/content/status-copy';
import { ROUTES } from '@/lib/shared/public-pages';
import type { LangAttrs } from '@/lib/shared/text-language';

/** The body of the pages that stand in for content: not found, and something went wrong. */
export function StatusPage({
  label,
  heading,
  text,
  lang,
  children,
}: {
  label: string;
  heading: string;
  text: string;
  /** Set where the words are in another language than the page's. */
  lang?: LangAttrs;
  children: ReactNode;
}) {
  return (
    <div {...lang} className="flex flex-1 items-center justify-center px-4 py-20">
      <div className="max-w-md text-center">
        <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">{label}</p>
        <h1 className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">{heading}</h1>
        <p className="mt-4 text-muted">{text}</p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">{children}</div>
      </div>
    </div>
  );
}

export const primaryAction = 'rounded-lg bg-brand-600 px-5 py-2.5 font-semibold text-white hover:bg-brand-700';
export const secondaryAction = 'rounded-lg border border-gray-300 bg-white px-5 py-2.5 font-semibold hover:bg-gray-100';

/** Where the status pages lead on, in the page's language. */
export type StatusLinks = { home: string; support: string };

const DEFAULT_LINKS: StatusLinks = { home: ROUTES.home, support: ROUTES.support };

export function HomeLink({ label, href = ROUTES.home }: { label: string; href?: string }) {
  return (
    <a href={href} className={primaryAction}>
      {label}
    </a>
  );
}

/** For the 404 pages (an unknown path, and a day no version of the policy has): what is missing, and the two ways on. */
export function NotFoundBody({ copy, links = DEFAULT_LINKS, lang }: { copy: NotFoundCopy; links?: StatusLinks; lang?: LangAttrs }) {
  return (
    <StatusPage label={copy.label} heading={copy.heading} text={copy.text} lang={lang}>
      <HomeLink label={copy.homeLink} href={links.home} />
      <a href={links.support} className={secondaryAction}>
        {copy.supportLink}
      </a>
    </StatusPage>
  );
}

/** For the error pages: what went wrong on our side, and the two ways on. */
export function ErrorBody({
  copy,
  retry,
  links = DEFAULT_LINKS,
  lang,
}: {
  copy: ErrorCopy;
  retry: () => void;
  links?: StatusLinks;
  lang?: LangAttrs;
}) {
  return (
    <StatusPage label={copy.label} heading={copy.heading} text={copy.text} lang={lang}>
      <button type="button" onClick={() => retry()} className={secondaryAction}>
        {copy.retry}
      </button>
      <HomeLink label={copy.homeLink} href={links.home} />
    </StatusPage>
  );
}
