import { createClient } from '@sanity/client';
import { defineConfig, type WorkspaceOptions } from 'sanity';
import { structureTool } from 'sanity/structure';

import { VERSION_TYPE } from '@/lib/policy/policy-record';
import { lakeApiHost, LOCAL_PROJECT } from '@school-site/content-lake/browser';
import { sanityConfig } from '@/lib/env/public';
import { schemaTypes, singletonTypes } from '@/schemas';

import { backOffice } from './back-office/plugin';
import { KeepOperationsLayout } from './keep-operations';
import { StudioInput } from './language-input';
import { presentation } from './presentation';
import { structure } from './structure';

const singletonActions = new Set(['publish', 'discardChanges', 'restore']);
// Types no editor creates: the singletons exist once under their fixed ids, and the site writes the policy's versions.
const notCreated = [...singletonTypes, VERSION_TYPE];

/**
 * With no Sanity project, the Studio edits the local Content Lake that the site's own server answers
 * (app/api/lake), on the origin the Studio was loaded from: the lake signs in the editor on this machine,
 * so there is no login. `unstable_clientFactory`, a beta hook of sanity 5.31.2 (pinned, and checked by
 * tests/unit/studio-config.test.ts), gives every client of the Studio path-style URLs there, as the
 * lake's API has no project hostnames.
 */
function localLake(): Partial<WorkspaceOptions> {
  // The Sanity CLI reads this file in Node (schema extract, typegen): there is no page, and no lake to reach.
  if (typeof window === 'undefined') return {};
  const apiHost = lakeApiHost(window.location.origin);
  return {
    apiHost,
    unstable_clientFactory: (options) => createClient({ ...options, apiHost, useProjectHostname: false }),
    // The lake keeps content releases and publishes scheduled ones itself (packages/content-lake/src/releases.ts,
    // scheduler.ts): releases and scheduled drafts are on. The old Scheduled Publishing plugin, which its
    // own /schedules API drives, stays off.
    releases: { enabled: true },
    scheduledPublishing: { enabled: false },
    scheduledDrafts: { enabled: true },
  };
}

const project = sanityConfig();

/**
 * The Studio mounted at /studio. The project comes from the public env; the CLI
 * (schema extract, typegen, dataset import) reads the same file through sanity.cli.ts.
 */
export default defineConfig({
  name: 'default',
  title: 'Website content',
  basePath: '/studio',
  projectId: project?.projectId ?? LOCAL_PROJECT.projectId,
  dataset: project?.dataset ?? LOCAL_PROJECT.dataset,
  ...(project ? (project.apiHost ? { apiHost: project.apiHost } : {}) : localLake()),
  // The back office asks the site's server, which admits this machine's browser on the local lake and a
  // signed-in editor's token with a project: the tool only needs to know which it is.
  plugins: [structureTool({ structure }), presentation, backOffice({ hosted: project !== null })],
  studio: { components: { layout: KeepOperationsLayout } },
  form: { components: { input: StudioInput } },
  schema: {
    types: schemaTypes,
    templates: (templates) => templates.filter(({ schemaType }) => !notCreated.includes(schemaType)),
  },
  document: {
    // A version of the policy is a record: no action changes it in the Studio.
    actions: (actions, { schemaType }) =>
      schemaType === VERSION_TYPE
        ? []
        : singletonTypes.includes(schemaType)
          ? actions.filter(({ action }) => action !== undefined && singletonActions.has(action))
          : actions,
    newDocumentOptions: (options, { creationContext }) =>
      creationContext.type === 'global' ? options.filter(({ templateId }) => !notCreated.includes(templateId)) : options,
  },
});
