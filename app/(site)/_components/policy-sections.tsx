import type { PolicyLanguages, PrivacyPolicyView } from '@/lib/content/policy-view';
import type { LangAttrs } from '@/lib/shared/text-language';

import { PortableText } from './portable-text';

/**
 * A policy's numbered sections: the current one at /privacy, an earlier one at /privacy/versions/<date>.
 * `lang`: the default (governing) language's attributes where the text is in it on a page in another.
 */
export function PolicySections({ sections, lang }: { sections: PrivacyPolicyView['sections']; lang?: LangAttrs }) {
  return (
    <ol {...lang} className="mt-10 flex flex-col gap-10">
      {sections.map((section, index) => (
        <li key={section._key} className="below-fold">
          <section aria-labelledby={`privacy-${index + 1}`}>
            <h2 id={`privacy-${index + 1}`} className="text-2xl font-bold text-ink">
              {index + 1}. {section.heading}
            </h2>
            <PortableText value={section.body} />
          </section>
        </li>
      ))}
    </ol>
  );
}

type Line = { label: string; text: string } | null;
type Link = { label: string; href: string } | null;

/** Under a policy's title: its date, its summary of changes, and the links to what changed and to every version. */
export function PolicyDateLine({
  lastUpdated,
  corrected,
  summary,
  changesLink,
  versionsLink,
  langOf,
}: {
  lastUpdated: { label: string; dateTime: string; text: string } | null;
  corrected?: string | null;
  summary: Line;
  changesLink: Link;
  versionsLink: Link;
  langOf: Pick<PolicyLanguages, 'lastUpdatedLabel' | 'summary' | 'versions'>;
}) {
  return (
    <div className="mt-3 flex flex-col gap-2 text-sm text-muted">
      {lastUpdated ? (
        <p {...langOf.lastUpdatedLabel}>
          {lastUpdated.label} <time dateTime={lastUpdated.dateTime}>{lastUpdated.text}</time>
          {corrected ? <> · {corrected}</> : null}
        </p>
      ) : null}
      {summary ? (
        // The line is its label's: in the default language, so is its order.
        <p {...langOf.versions}>
          <span className="font-semibold text-ink">{summary.label}</span> <span {...langOf.summary}>{summary.text}</span>
        </p>
      ) : null}
      <p {...langOf.versions} className="flex flex-wrap gap-x-4 gap-y-1">
        {changesLink ? <TextLink {...changesLink} /> : null}
        {versionsLink ? <TextLink {...versionsLink} /> : null}
      </p>
    </div>
  );
}

/**
 * A link in the policy's pages; `date` (YYYY-MM-DD) marks its label as that date, written out. `underlined`
 * where it stands inside a sentence, which its colour alone does not set apart from the words around it.
 */
export function TextLink({ label, href, date, underlined = false }: { label: string; href: string; date?: string; underlined?: boolean }) {
  return (
    <a href={href} className={`font-medium text-brand-700 underline-offset-2 ${underlined ? 'underline' : 'hover:underline'}`}>
      {date ? <time dateTime={date}>{label}</time> : label}
    </a>
  );
}
