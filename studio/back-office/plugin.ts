import { definePlugin } from 'sanity';

import { backOfficeEnglish } from './i18n';
import { BackOfficeTool, type BackOfficeOptions } from './tool';

/** The tool's name: its path under the Studio (/studio/back-office). */
export const BACK_OFFICE_TOOL = 'back-office';

/**
 * The back office, a tab of the Studio on both paths: what the site collected (support requests,
 * subscribers), whom its notices told, and a person's data to show, export or erase. The Studio only shows
 * it: every answer comes from the site's server, which checks who asks (app/api/back-office).
 */
export const backOffice = definePlugin<BackOfficeOptions>((options) => ({
  name: 'school-site-back-office',
  tools: [{ name: BACK_OFFICE_TOOL, title: 'Back office', component: BackOfficeTool, options }],
  i18n: { bundles: [backOfficeEnglish] },
}));
