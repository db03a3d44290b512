export function SectionHeading({ id, heading, intro }: { id: string; heading: string; intro?: string }) {
  return (
    <div className="paint-whole mx-auto max-w-2xl text-center">
      <h2 id={id} className="text-3xl font-bold tracking-tight text-ink sm:text-4xl">
        {heading}
      </h2>
      {intro ? <p className="mt-4 text-lg text-muted">{intro}</p> : null}
    </div>
  );
}
