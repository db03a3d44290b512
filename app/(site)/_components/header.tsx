import type { SettingsView } from '@/lib/content/views';

import { SiteLink } from './site-link';

export function Header({ settings }: { settings: SettingsView }) {
  return (
    <header className="paint-whole sticky top-0 z-40 border-b border-gray-200 bg-white/95">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-6 gap-y-2 px-4 py-3 sm:px-6">
        <a {...settings.langOf.productName} href={settings.home.href} className="text-xl font-bold tracking-tight text-brand-700">
          {settings.productName}
        </a>
        <nav>
          <ul {...settings.langOf.headerLinks} className="flex flex-wrap items-center gap-x-5 gap-y-1 text-sm font-medium text-ink">
            {settings.headerLinks.map((link) => (
              <li key={link._key}>
                <SiteLink href={link.href} className="rounded px-1 py-2 hover:text-brand-700">
                  {link.label}
                </SiteLink>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </header>
  );
}
