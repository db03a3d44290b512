import { defineLocations, presentationTool, type PresentationPluginOptions } from 'sanity/presentation';

import { PUBLIC_PAGES, PUBLIC_PATHS, ROUTES } from '@/lib/shared/public-pages';
import { SINGLETONS } from '@/schemas';

/** Each public page as a Presentation location, named after the document it shows (the policy shows on two). */
const pages = PUBLIC_PATHS.map((href) => {
  const type = PUBLIC_PAGES[href];
  const title = SINGLETONS[type].title ?? type;
  return { type, location: { title: href === ROUTES.versions ? `${title}: versions` : title, href } };
});

/** Which pages show each singleton, so the Studio can open them side by side with the form. */
const locations: PresentationPluginOptions['resolve'] = {
  locations: {
    ...Object.fromEntries(
      [...new Set(pages.map(({ type }) => type))].map((type) => [
        type,
        defineLocations({ locations: pages.filter((page) => page.type === type).map(({ location }) => location) }),
      ]),
    ),
    siteSettings: defineLocations({
      message: 'Site settings appear on every page',
      tone: 'caution',
      locations: pages.map(({ location }) => location),
    }),
  },
};

/** Reviewers preview drafts in context: the site opens in draft mode with click-to-edit overlays. */
export const presentation = presentationTool({
  resolve: locations,
  previewUrl: {
    previewMode: { enable: '/api/draft-mode/enable', disable: '/api/draft-mode/disable' },
  },
});
