import type { FaqView } from '@/lib/content/views';

/** The FAQ's structured data (built in lib/content/views.ts) as a JSON-LD script. */
export function FaqJsonLd({ data }: { data: FaqView['structuredData'] }) {
  // Escaping "<" keeps editor text from closing the script element.
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: JSON.stringify(data).replace(/</g, '\\u003c') }} />;
}
