import { defineLocations, presentationTool, type PresentationPluginOptions } from 'sanity/presentation';

const PAGES = { landingPage: ['Landing page', '/'], supportPage: ['Support', '/support'], privacyPolicy: ['Privacy policy', '/privacy'] } as const;

/** Which pages show each singleton, so the Studio can open them side by side with the form. */
const locations: PresentationPluginOptions['resolve'] = {
  locations: {
    ...Object.fromEntries(
      Object.entries(PAGES).map(([type, [title, href]]) => [type, defineLocations({ locations: [{ title, href }] })]),
    ),
    siteSettings: defineLocations({
      message: 'Site settings appear on every page',
      tone: 'caution',
      locations: Object.values(PAGES).map(([title, href]) => ({ title, href })),
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
