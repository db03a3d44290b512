import type { VersionListView } from '@/lib/content/version-views';

import { BackHome } from './back-home';
import { TextLink } from './policy-sections';

/** One page of the list of the policy's versions, newest first, with the way to the pages before and after it. */
export function VersionList({ view, language }: { view: VersionListView; language: string }) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      <BackHome language={language} />
      <h1 {...view.langOf.words} className="mt-6 text-4xl font-extrabold tracking-tight text-ink sm:text-5xl">
        {view.heading}
      </h1>
      <p {...view.langOf.words} className="mt-4 text-lg text-muted">
        {view.intro}
      </p>
      {/* The dates are written in the words' language, as the labels around them. */}
      <ol {...view.langOf.words} className="mt-10 border-y border-gray-200">
        {view.entries.map((version) => (
          <li key={version.date} className="border-gray-200 py-5 not-last:border-b">
            <h2 className="text-xl font-bold text-ink">
              <TextLink label={version.dateText} href={version.href} date={version.date} />
              {version.current || version.upcoming ? (
                <span className="ms-3 rounded-full bg-brand-50 px-2.5 py-0.5 align-middle text-sm font-semibold text-brand-700">
                  {version.current ? view.currentLabel : view.upcomingLabel}
                </span>
              ) : null}
            </h2>
            <p className="mt-1 text-sm text-muted">
              {version.inEffect}
              {version.corrected ? <> · {version.corrected}</> : null}
            </p>
            {version.summary ? (
              <p {...view.langOf.summaries} className="mt-2 text-ink">
                {version.summary}
              </p>
            ) : null}
          </li>
        ))}
      </ol>
      <p {...view.langOf.words} className="mt-8 text-sm">
        <TextLink {...view.feedLink} />
      </p>
      {view.pages ? (
        <nav {...view.langOf.words} aria-label={view.pages.text} className="mt-8 flex items-center justify-between gap-4 text-sm">
          <span>{view.pages.newer ? <TextLink {...view.pages.newer} /> : null}</span>
          <span className="text-muted">{view.pages.text}</span>
          <span>{view.pages.older ? <TextLink {...view.pages.older} /> : null}</span>
        </nav>
      ) : null}
    </article>
  );
}
