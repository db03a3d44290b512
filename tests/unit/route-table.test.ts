import { existsSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { config } from '@/proxy';
import {
  DEFAULT_LANGUAGE_PATHS,
  DEFAULT_SEGMENT,
  fetchTags,
  PAGES,
  pagesShowing,
  PUBLIC_PATHS,
  ROUTES,
  SITE_SEGMENTS,
} from '@/lib/shared/public-pages';

/**
 * The route table is the one list of the site's pages; what Next needs as literals (the proxy's matcher)
 * and what lives in the file system (the route folders) must agree with it.
 */

/** The first segments the proxy's catch-all matcher lets past without a look: those it leaves to Next. */
function segmentsTheMatcherSkips(): string[] {
  const sources = config.matcher.flatMap((entry) => ('has' in entry ? [] : [entry.source]));
  const catchAll = sources.find((source) => source.startsWith('/((?!'));
  const group = catchAll?.match(/^\/\(\(\?!\(\?:([^)]+)\)\(\?:\/\|\$\)/)?.[1];
  return group?.split('|') ?? [];
}

describe('the route table', () => {
  it("the proxy's matcher skips exactly the site's own first segments, and no other", () => {
    expect(segmentsTheMatcherSkips().sort()).toEqual(SITE_SEGMENTS.filter((segment) => segment !== '').sort());
  });

  it('every page has its route folder under each language, and the default language reaches each at its plain path', () => {
    for (const { path: page } of PAGES) {
      expect(existsSync(path.join('app/(site)/[lang]', page)), page).toBe(true);
      expect(
        DEFAULT_LANGUAGE_PATHS.some((source) => source === page || (source.endsWith('/:path*') && page.startsWith(source.slice(0, -7)))),
        page,
      ).toBe(true);
    }
    expect(SITE_SEGMENTS).toContain(DEFAULT_SEGMENT);
  });

  it('every path of ROUTES is a page of the table or below one', () => {
    for (const route of Object.values(ROUTES)) {
      expect(
        PAGES.some(({ path: page, ...rest }) => route === page || ('below' in rest && route.startsWith(`${page}/`))),
        route,
      ).toBe(true);
    }
  });

  it('a publish refreshes the pages that read the type, and Site settings every page', () => {
    expect(pagesShowing('landingPage')).toEqual([ROUTES.home]);
    expect(pagesShowing('privacyPolicy')).toEqual([ROUTES.privacy, ROUTES.versions]);
    expect(pagesShowing('siteSettings')).toEqual(PUBLIC_PATHS);
    // The landing page and the policy fill {radius} from the settings: their fetches carry its tag.
    expect(fetchTags('landingPage')).toEqual(['landingPage', 'siteSettings']);
    expect(fetchTags('supportPage')).toEqual(['supportPage']);
    expect(fetchTags('siteSettings')).toEqual(['siteSettings']);
  });
});
