import type { Part, SectionChange } from '@/lib/policy/policy-diff';
import type { ChangesView } from '@/lib/content/version-views';
import type { LangAttrs } from '@/lib/shared/text-language';

type Labels = ChangesView['labels'];

/**
 * Removed words in <del>, added words in <ins>, each opened by a word only screen readers hear ("added",
 * "removed"), since most announce neither element. Colour is not the only mark: <del> is struck through
 * and <ins> underlined.
 */
function Marked({ parts, labels }: { parts: Part[]; labels: Labels }) {
  return parts.map((part, index) =>
    part.change === 'added' ? (
      <ins key={index} className="bg-green-100 text-green-900 decoration-green-700">
        <span className="sr-only">{labels.addedWords}: </span>
        {part.text}
      </ins>
    ) : part.change === 'removed' ? (
      <del key={index} className="bg-red-100 text-red-900 decoration-red-700">
        <span className="sr-only">{labels.removedWords}: </span>
        {part.text}
      </del>
    ) : (
      <span key={index}>{part.text}</span>
    ),
  );
}

const Paragraphs = ({ paragraphs }: { paragraphs: string[] }) =>
  paragraphs.map((paragraph, index) => (
    <p key={index} className="mt-3 text-ink">
      {paragraph}
    </p>
  ));

function Badge({ children, tone }: { children: string; tone: 'added' | 'removed' | 'unchanged' }) {
  const colours = { added: 'bg-green-100 text-green-900', removed: 'bg-red-100 text-red-900', unchanged: 'bg-gray-100 text-gray-800' };
  return <span className={`ms-3 rounded-full px-2.5 py-0.5 align-middle text-sm font-semibold ${colours[tone]}`}>{children}</span>;
}

function Section({ section, labels }: { section: SectionChange; labels: Labels }) {
  const headingClass = 'text-2xl font-bold text-ink';
  switch (section.status) {
    case 'unchanged':
      // Collapsed: what did not change is there to read, out of the way of what did.
      return (
        <details>
          <summary className="cursor-pointer text-xl font-bold text-ink">
            {section.heading}
            <Badge tone="unchanged">{labels.unchanged}</Badge>
          </summary>
          <Paragraphs paragraphs={section.paragraphs} />
        </details>
      );
    case 'added':
    case 'removed': {
      const Mark = section.status === 'added' ? 'ins' : 'del';
      return (
        <section aria-label={`${section.heading} (${labels[section.status]})`}>
          <h2 className={headingClass}>
            {section.heading}
            <Badge tone={section.status}>{labels[section.status]}</Badge>
          </h2>
          <Mark className={section.status === 'added' ? 'block no-underline' : 'block'}>
            <Paragraphs paragraphs={section.paragraphs} />
          </Mark>
        </section>
      );
    }
    case 'changed':
      return (
        <section>
          <h2 className={headingClass}>
            <Marked parts={section.heading} labels={labels} />
          </h2>
          {section.paragraphs.map((parts, index) => (
            <p key={index} className="mt-3 text-ink">
              <Marked parts={parts} labels={labels} />
            </p>
          ))}
        </section>
      );
  }
}

/** `lang`: the default (governing) language's attributes where both versions are compared in it on a page in another. */
export function PolicyChanges({ sections, labels, lang }: { sections: SectionChange[]; labels: Labels; lang?: LangAttrs }) {
  return (
    <ol {...lang} className="mt-10 flex flex-col gap-8">
      {sections.map((section) => (
        <li key={`${section.status}-${section.key}`}>
          <Section section={section} labels={labels} />
        </li>
      ))}
    </ol>
  );
}
