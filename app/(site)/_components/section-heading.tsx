import type { LangAttrs } from '@/lib/shared/text-language';

/** `langOf`: the attributes of the heading and the intro where their words are the default language's on a page in another. */
export function SectionHeading({
  id,
  heading,
  intro,
  langOf = {},
}: {
  id: string;
  heading: string;
  intro?: string;
  langOf?: Partial<Record<'heading' | 'intro', LangAttrs>>;
}) {
  return (
    <div className="paint-whole mx-auto max-w-2xl text-center">
      <h2 {...langOf.heading} id={id} className="text-3xl font-bold tracking-tight text-ink sm:text-4xl">
        {heading}
      </h2>
      {intro ? (
        <p {...langOf.intro} className="mt-4 text-lg text-muted">
          {intro}
        </p>
      ) : null}
    </div>
  );
}
