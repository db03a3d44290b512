import type { ReactNode } from 'react';

import type { LandingPageView } from '@/lib/content/views';

const paths = {
  radius: (
    <>
      <path d="M12 21s-7-6.2-7-11.5A7 7 0 0 1 19 9.5C19 14.8 12 21 12 21Z" />
      <circle cx="12" cy="9.5" r="2.5" />
    </>
  ),
  feed: <path d="M13 2 4 14h7l-1 8 9-12h-7l1-8Z" />,
  community: (
    <>
      <circle cx="9" cy="8" r="3" />
      <path d="M3 20a6 6 0 0 1 12 0" />
      <circle cx="17" cy="9" r="2.5" />
      <path d="M16 14.5a5 5 0 0 1 5 5" />
    </>
  ),
  shield: (
    <>
      <path d="M12 3 5 6v5c0 4.5 3 8.3 7 10 4-1.7 7-5.5 7-10V6l-7-3Z" />
      <path d="m9 12 2 2 4-4" />
    </>
  ),
  arrowDown: <path d="M12 5v14m0 0-6-6m6 6 6-6" />,
} satisfies Record<LandingPageView['features']['cards'][number]['icon'] | 'arrowDown', ReactNode>;

/** Decorative line icons; the text beside them carries the meaning. */
export function Icon({ name, className }: { name: keyof typeof paths; className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      className={className}
    >
      {/* A value the schema does not list (hosted data is not checked at read) gets the default. */}
      {paths[name] ?? paths.radius}
    </svg>
  );
}
