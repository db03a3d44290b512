import type { FaqView } from '@/lib/content/views';

import { FaqJsonLd } from './faq-json-ld';
import { SectionHeading } from './section-heading';

/** A FAQ as the #faq section: every answer visible, plus FAQPage structured data. */
export function FaqSection({ faq, className }: { faq: FaqView; className: string }) {
  return (
    <section {...faq.lang} id="faq" aria-labelledby="faq-heading" className={`below-fold mx-auto max-w-3xl ${className}`}>
      <SectionHeading id="faq-heading" heading={faq.heading} langOf={faq.langOf} />
      <dl {...faq.langOf.items} className="mt-10 rounded-2xl border border-gray-200 bg-white">
        {faq.items.map((item) => (
          <div key={item._key} className="border-gray-200 p-5 not-last:border-b sm:p-6">
            <dt className="font-semibold text-ink">{item.question}</dt>
            <dd className="mt-2 text-muted">{item.answer}</dd>
          </div>
        ))}
      </dl>
      <FaqJsonLd data={faq.structuredData} />
    </section>
  );
}
