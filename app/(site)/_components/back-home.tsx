/** The way back to the home page in the page's language (`href`: the settings view's home); its arrow points back in either direction. */
export function BackHome({ label, href }: { label: string; href: string }) {
  return (
    <a href={href} className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline">
      <span aria-hidden="true" className="points-inline">
        ←
      </span>{' '}
      {label}
    </a>
  );
}
