import { sanityConfig } from '@/lib/env/public';

import { Studio } from './studio';

// One prerendered page for every Studio path: next.config.ts rewrites /studio/... here and the Studio's
// own router reads the address, so no path a visitor makes up is ever rendered or cached on its own.

export { viewport } from 'next-sanity/studio';

export default function StudioPage() {
  return <Studio local={!sanityConfig()} />;
}
