import { defineDocuments, defineLocations, presentationTool, type DocumentLocation } from 'sanity/presentation';

import { localizeHref } from '@/lib/shared/languages';
import { pagesShowing, PUBLIC_PAGES, PUBLIC_PATHS, ROUTES, type PublicPath } from '@/lib/shared/public-pages';
import { CONTENT_TYPES } from '@/lib/shared/content-types';
import { SINGLETONS } from '@/schemas';

/** A page of the route table as a Presentation location, named after the document it shows (the policy shows on two). */
function location(path: PublicPath): DocumentLocation {
  const type = PUBLIC_PAGES[path];
  const title = SINGLETONS[type].title ?? type;
  return { title: path === ROUTES.versions ? `${title}: versions` : title, href: path };
}

/**
 * Which pages show each document, so the Studio opens them side by side with the form: a translation's
 * pages under its language's prefix (/es/support), the default language's document at the plain paths.
 */
const locations = {
  locations: Object.fromEntries(
    CONTENT_TYPES.map((type) => {
      const paths = pagesShowing(type);
      return [
        type,
        defineLocations({
          select: { language: 'language' },
          resolve: (document) => {
            const prefix = typeof document?.language === 'string' ? `/${document.language}` : '';
            return {
              ...(type === 'siteSettings' ? { message: 'Site settings appear on every page', tone: 'caution' as const } : {}),
              locations: paths.map((path) => ({ ...location(path), href: localizeHref(path, prefix) })),
            };
          },
        }),
      ];
    }),
  ),
};

/**
 * The document each page of the preview shows, so that following a link in the preview opens its form:
 * the default language's at the plain paths, a translation at its language's.
 */
const mainDocuments = defineDocuments(
  PUBLIC_PATHS.flatMap((path) => [
    { route: path, filter: `_type == "${PUBLIC_PAGES[path]}" && !defined(language)` },
    { route: localizeHref(path, '/:language'), filter: `_type == "${PUBLIC_PAGES[path]}" && language == $language` },
  ]),
);

/** Reviewers preview drafts in context: the site opens in draft mode with click-to-edit overlays. */
export const presentation = presentationTool({
  resolve: { ...locations, mainDocuments },
  previewUrl: {
    previewMode: { enable: '/api/draft-mode/enable', disable: '/api/draft-mode/disable' },
  },
});
