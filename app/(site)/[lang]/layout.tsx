import '../../globals.css';

import type { Viewport } from 'next';
import type { ReactNode } from 'react';

import { getLocalPath, getSettings, getSiteNotice } from '@/lib/content';
import { ROUTES } from '@/lib/shared/public-pages';
import { siteMetadata } from '@/lib/content/metadata';

import { DraftTools } from '../_components/draft-tools';
import { StatusCopyProvider } from '../_components/status-copy';
import { Footer } from '../_components/footer';
import { Header } from '../_components/header';
import { languageParams, pageLanguage, type LanguageParams } from '../_components/page-language';
import { SiteNotice } from '../_components/policy-notices';

export const generateStaticParams = languageParams;

export async function generateMetadata(props: LanguageParams) {
  return siteMetadata((await pageLanguage(props)).tag);
}

export const viewport: Viewport = { themeColor: '#3451d1', width: 'device-width', initialScale: 1 };

/** The skip link's target. */
const MAIN_ID = 'main';

export default async function SiteLayout({ children, ...props }: LanguageParams & { children: ReactNode }) {
  const { tag, direction } = await pageLanguage(props);
  const [settings, notice, support] = await Promise.all([getSettings(tag), getSiteNotice(tag), getLocalPath(tag, ROUTES.support)]);
  return (
    <html lang={tag} dir={direction}>
      <body className="flex min-h-screen flex-col bg-white text-ink antialiased">
        <a
          {...settings.chrome.langOf.skipLink}
          href={`#${MAIN_ID}`}
          className="sr-only focus:not-sr-only focus:absolute focus:inset-s-4 focus:top-4 focus:z-50 focus:rounded focus:bg-white focus:px-4 focus:py-2 focus:shadow-sm"
        >
          {settings.chrome.skipLink}
        </a>
        <SiteNotice notice={notice} />
        <Header settings={settings} />
        <main id={MAIN_ID} className="flex-1">
          {/* The error and 404 boundaries sit inside the layout: they get their words and links from here. */}
          <StatusCopyProvider
            error={settings.errorPage}
            notFound={settings.notFound}
            links={{ home: settings.home.href, support }}
            langOf={{ error: settings.langOf.errorPage, notFound: settings.langOf.notFound }}
          >
            {children}
          </StatusCopyProvider>
        </main>
        <Footer settings={settings} />
        <DraftTools />
      </body>
    </html>
  );
}
