import { stegaClean } from 'next-sanity';

type Item = { question: string | null; answer: string | null };

/** FAQPage structured data, so search results can show the questions. */
export function FaqJsonLd({ items }: { items: Item[] | null }) {
  const data = {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: (items ?? []).map((item) => ({
      '@type': 'Question',
      name: stegaClean(item.question),
      acceptedAnswer: { '@type': 'Answer', text: stegaClean(item.answer) },
    })),
  };
  // Escaping "<" keeps editor text from closing the script element.
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: JSON.stringify(data).replace(/</g, '\\u003c') }} />;
}
