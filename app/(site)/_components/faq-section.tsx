import { FaqJsonLd } from './faq-json-ld';
import { SectionHeading } from './section-heading';

type Item = { _key: string; question: string | null; answer: string | null };

/** A FAQ as the #faq section: every answer visible, plus FAQPage structured data. */
export function FaqSection({ heading, items, className }: { heading: string | null; items: Item[] | null; className: string }) {
  return (
    <section id="faq" aria-labelledby="faq-heading" className={`mx-auto max-w-3xl ${className}`}>
      <SectionHeading id="faq-heading" heading={heading} />
      <dl className="mt-10 divide-y divide-gray-200 rounded-2xl border border-gray-200 bg-white">
        {items?.map((item) => (
          <div key={item._key} className="p-5 sm:p-6">
            <dt className="font-semibold text-ink">{item.question}</dt>
            <dd className="mt-2 text-muted">{item.answer}</dd>
          </div>
        ))}
      </dl>
      <FaqJsonLd items={items} />
    </section>
  );
}
