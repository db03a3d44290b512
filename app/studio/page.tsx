import { sanityConfig } from '@/lib/env/public';

import { Studio } from './studio';

// One prerendered page for every Studio path: next.config.ts rewrites /studio/... here and the Studio's
// own router reads the address, so no path a visitor makes up is ever rendered or cached on its own.

export { viewport } from 'next-sanity/studio';

const VARIABLES = ['NEXT_PUBLIC_SANITY_PROJECT_ID', 'NEXT_PUBLIC_SANITY_DATASET'];

/** Without a Sanity project the Studio has nothing to edit; say how to connect one instead of crashing. */
function ConnectProject() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: '40rem', margin: '4rem auto', padding: '0 1rem', lineHeight: 1.6 }}>
      <h1>Connect a Sanity project to edit content</h1>
      <p>
        The site is running on the embedded seed dataset in <code>seed/production.ndjson</code>. To edit it here, set these variables (see{' '}
        <code>.env.example</code> and the README) and restart the server:
      </p>
      <ul>
        {VARIABLES.map((name) => (
          <li key={name}>
            <code>{name}</code>
          </li>
        ))}
      </ul>
      <p>
        Then load the seed into the project with <code>npm run content:import</code>.
      </p>
    </main>
  );
}

export default function StudioPage() {
  return sanityConfig() ? <Studio /> : <ConnectProject />;
}
