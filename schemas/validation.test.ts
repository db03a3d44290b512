import { it } from 'vitest';
import { createWorkspaceFromConfig, validateDocument } from 'sanity';
import { createClient } from '@sanity/client';
import config from '@/studio/sanity.config';

it('probe', async () => {
  const t0 = Date.now();
  const client = createClient({ projectId: 'test1234', dataset: 'production', apiVersion: '2025-01-01', useCdn: false });
  const workspace = await createWorkspaceFromConfig({
    ...config,
    getClient: () => client, currentUser: { id: 'test', name: 'Test', email: 't@example.com', role: 'administrator', roles: [] },
  } as any);
  console.log('ws', Date.now() - t0, workspace.name, workspace.projectId);
  const markers = await validateDocument({
    document: { _id: 'siteSettings', _type: 'siteSettings', _createdAt: '', _updatedAt: '', _rev: '' , productName: 'x', radiusMiles: 0} as any,
    workspace,
    getDocumentExists: async () => true,
    environment: 'cli',
  });
  console.log(JSON.stringify(markers.map(m => [m.level, m.path, m.message])), Date.now() - t0);
});
