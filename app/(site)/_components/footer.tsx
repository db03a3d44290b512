import { cacheLife } from 'next/cache';

import type { SettingsView } from '@/lib/content/views';

import { SiteLink } from './site-link';

/**
 * The year in the prerendered page, renewed daily. A page's lifetimes are the shortest of what it shows,
 * so this sets its Cache-Control: s-maxage one day, and stale-while-revalidate up to a year as before
 * (the 'days' profile would cut that to a week).
 */
const DAILY = { revalidate: 24 * 60 * 60, expire: 365 * 24 * 60 * 60 };

async function CurrentYear() {
  'use cache';
  cacheLife(DAILY);
  return new Date().getFullYear();
}

export function Footer({ settings }: { settings: SettingsView }) {
  return (
    <footer className="below-fold border-t border-gray-200 bg-gray-50">
      <div {...settings.langOf.footerColumns} className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:grid-cols-3 sm:px-6">
        {settings.footerColumns.map((column) => (
          <div key={column._key}>
            <h2 className="text-sm font-semibold text-ink">{column.title}</h2>
            <ul className="mt-3 flex flex-col gap-2 text-sm text-muted">
              {column.links.map((link) => (
                <li key={link._key}>
                  <SiteLink href={link.href} className="hover:text-brand-700 hover:underline">
                    {link.label}
                  </SiteLink>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
      {/* The product's name keeps its own direction inside the line (an English name on a right-to-left page). */}
      <p {...settings.chrome.langOf.rightsReserved} className="border-t border-gray-200 py-6 text-center text-sm text-muted">
        © <CurrentYear /> <bdi {...settings.langOf.productName}>{settings.productName}</bdi>. {settings.chrome.rightsReserved}
      </p>
    </footer>
  );
}
