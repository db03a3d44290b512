import type { ReactNode } from 'react';

type Props = { href: string | null | undefined; className?: string; children: ReactNode };

/**
 * Links as editors enter them (the view models clean the targets): a site path, an https:// or mailto:
 * address, or nothing yet (then the label shows as plain text rather than a dead link).
 * Plain anchors on purpose: three static pages need no client router.
 */
export function SiteLink({ href, className, children }: Props) {
  if (!href) return <span className={className}>{children}</span>;
  const external = /^https?:\/\//.test(href);
  // An address keeps its own direction inside a sentence of another script (an email address in an Arabic line).
  const address = href.startsWith('mailto:');
  return (
    <a href={href} className={className} {...(external ? { rel: 'noopener noreferrer' } : {})} {...(address ? { dir: 'auto' } : {})}>
      {children}
    </a>
  );
}
