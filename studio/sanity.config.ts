import { defineConfig } from 'sanity';
import { structureTool } from 'sanity/structure';

import { sanityConfig } from '@/lib/env/public';
import { schemaTypes, singletonTypes } from '@/schemas';

import { presentation } from './presentation';
import { structure } from './structure';

const singletonActions = new Set(['publish', 'discardChanges', 'restore']);

// Unconfigured, the Studio is not served (app/studio/page.tsx); the CLI still reads the schema from here.
const project = sanityConfig() ?? { projectId: 'unconfigured', dataset: 'production' };

/**
 * The Studio mounted at /studio. The project comes from the public env; the CLI
 * (schema extract, typegen, dataset import) reads the same file through sanity.cli.ts.
 */
export default defineConfig({
  name: 'default',
  title: 'Website content',
  basePath: '/studio',
  projectId: project.projectId,
  dataset: project.dataset,
  ...('apiHost' in project && project.apiHost ? { apiHost: project.apiHost } : {}),
  plugins: [structureTool({ structure }), presentation],
  schema: {
    types: schemaTypes,
    // No "create new" for singletons: each exists once, under its fixed id.
    templates: (templates) => templates.filter(({ schemaType }) => !singletonTypes.includes(schemaType)),
  },
  document: {
    actions: (actions, { schemaType }) =>
      singletonTypes.includes(schemaType) ? actions.filter(({ action }) => action !== undefined && singletonActions.has(action)) : actions,
    newDocumentOptions: (options, { creationContext }) =>
      creationContext.type === 'global' ? options.filter(({ templateId }) => !singletonTypes.includes(templateId)) : options,
  },
});
