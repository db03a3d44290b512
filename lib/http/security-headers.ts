// Relative: next.config.ts loads this file, and its loader knows no path aliases.
import { sanityConfig, supabaseConfig } from '../env/public';

/**
 * Response headers for every response, built from the configured services so the browser may talk
 * only to them. Read by next.config.ts at build time, when the NEXT_PUBLIC_ variables are inlined
 * anyway, and by proxy.ts for the refusals it answers itself.
 */

/** `development`: under `next dev` (next.config.ts says so), whose React build uses eval() for its debugging features. */
type Env = { supabaseUrl?: string; sanityProjectId?: string; sanityApiHost?: string; development?: boolean };

/** The hosted services the browser may reach, from the public environment. */
export function configuredServices(): Env {
  const sanity = sanityConfig();
  return { supabaseUrl: supabaseConfig()?.url, sanityProjectId: sanity?.projectId, sanityApiHost: sanity?.apiHost };
}

const policy = (directives: Record<string, string[]>) =>
  Object.entries(directives)
    .map(([name, values]) => [name, ...values].join(' '))
    .join('; ');

function origin(url: string | undefined): string[] {
  if (!url) return [];
  try {
    const { origin: httpOrigin, host, protocol } = new URL(url);
    return [httpOrigin, `${protocol === 'http:' ? 'ws' : 'wss'}://${host}`];
  } catch {
    return [];
  }
}

/**
 * With no project, the local lake at /api/lake ('self'), whose streams a browser is sent to on names of
 * their own under localhost (packages/content-lake/src/access.ts), and (for the Studio) its presence socket.
 */
const LOCAL_LAKE_STREAMS = ['http://*.localhost:*'];
const LOCAL_LAKE_SOCKET = ['ws://localhost:*', 'ws://127.0.0.1:*'];

/** The project's Content Lake: SANITY_API_HOST when set (the whole API lives there), else Sanity's hosts. */
function sanityApi({ sanityProjectId: projectId, sanityApiHost }: Env): string[] {
  if (!projectId) return [];
  if (sanityApiHost) return origin(sanityApiHost);
  return [`https://${projectId}.api.sanity.io`, `wss://${projectId}.api.sanity.io`, `https://${projectId}.apicdn.sanity.io`];
}

/** The Studio's own clients put the project id before any API host, SANITY_API_HOST's too. */
function studioApi(services: Env): string[] {
  const { sanityProjectId: projectId, sanityApiHost } = services;
  if (!projectId) return [...LOCAL_LAKE_STREAMS, ...LOCAL_LAKE_SOCKET];
  if (!sanityApiHost) return sanityApi(services);
  const url = new URL(sanityApiHost);
  return [...origin(sanityApiHost), ...origin(`${url.protocol}//${projectId}.${url.host}`)];
}

/**
 * Sanity's own services, which a project's Studio asks: sign-in, the feedback probe and dialog (api.sanity.io),
 * the bridge script NextStudio loads for Sanity's dashboard (core.sanity-cdn.com), and the check for newer
 * versions every 15 minutes (sanity-cdn.com). The embedded default's Studio asks none of them: its page
 * answers the two calls it makes by itself (studio/sanity-services.ts), and its policy leaves these hosts
 * out, so that a call a newer `sanity` adds fails in the browser instead of leaving quietly.
 */
const SANITY_BRIDGE = 'https://core.sanity-cdn.com';
const SANITY_SERVICES = ['https://api.sanity.io', 'wss://api.sanity.io', SANITY_BRIDGE, 'https://sanity-cdn.com'];
/** A project's images and its editors' avatars (Sanity's own, and its sign-in providers'). */
const SANITY_IMAGES = [
  'https://cdn.sanity.io',
  'https://*.sanity.io',
  'https://lh3.googleusercontent.com',
  'https://avatars.githubusercontent.com',
];

/** Scripts: this site's own and inline ones, plus eval() under `next dev` only (React's dev build needs it; production never). */
const scripts = ({ development }: Env, ...more: string[]) => [
  "'self'",
  "'unsafe-inline'",
  ...more,
  ...(development ? ["'unsafe-eval'"] : []),
];

const common = {
  'Strict-Transport-Security': 'max-age=63072000; includeSubDomains',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
};

/**
 * `preview`: for draft mode (next.config.ts sends it when the draft-mode cookie is set), whose Live stream
 * reaches the local lake on a name of its own when there is no project. Visitors never get that source.
 */
export function siteHeaders(services: Env, preview = false): Record<string, string> {
  return {
    ...common,
    // Next inlines each page's data as <script>self.__next_f.push(…)</script>, whose text changes with
    // every publish: a static page can carry neither a per-request nonce nor hashes fixed at build time,
    // so scripts need 'unsafe-inline' (docs/operations.md, "Security headers").
    'Content-Security-Policy': policy({
      'default-src': ["'self'"],
      'script-src': scripts(services),
      'style-src': ["'self'", "'unsafe-inline'"],
      'img-src': ["'self'", 'data:', 'https://cdn.sanity.io'],
      'font-src': ["'self'"],
      'connect-src': [
        "'self'",
        ...origin(services.supabaseUrl),
        ...sanityApi(services),
        ...(preview && !services.sanityProjectId ? LOCAL_LAKE_STREAMS : []),
      ],
      // Only the embedded Studio (same origin) may frame the site, for the Presentation tool.
      'frame-ancestors': ["'self'"],
      'form-action': ["'self'"],
      'base-uri': ["'self'"],
      'object-src': ["'none'"],
    }),
    'X-Frame-Options': 'SAMEORIGIN',
    'Permissions-Policy': 'geolocation=(), camera=(), microphone=(), payment=(), usb=(), interest-cohort=()',
  };
}

export function studioHeaders(services: Env): Record<string, string> {
  const withProject = (sources: string[]) => (services.sanityProjectId ? sources : []);
  return {
    ...common,
    // With a project the Studio talks to it and to Sanity's services; on the local lake to the site alone.
    'Content-Security-Policy': policy({
      'default-src': ["'self'"],
      'script-src': scripts(services, ...withProject([SANITY_BRIDGE])),
      'style-src': ["'self'", "'unsafe-inline'"],
      'img-src': ["'self'", 'data:', 'blob:', ...withProject(SANITY_IMAGES)],
      'font-src': ["'self'", 'data:'],
      'connect-src': ["'self'", ...withProject(SANITY_SERVICES), ...studioApi(services)],
      'frame-src': ["'self'"],
      'worker-src': ["'self'", 'blob:'],
      'frame-ancestors': ["'none'"],
      'form-action': ["'self'"],
      'base-uri': ["'self'"],
      'object-src': ["'none'"],
    }),
    'X-Frame-Options': 'DENY',
    'Permissions-Policy': 'geolocation=(), camera=(), microphone=()',
  };
}
