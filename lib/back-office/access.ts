import 'server-only';

import { createHash } from 'node:crypto';

import { ClientError, createClient } from '@sanity/client';
import { admit, LakeError } from '@school-site/content-lake';
import { LOCAL_EDITOR } from '@school-site/content-lake/browser';
import { sanityClientOptions, sanityConfig, type SanityConfig } from '@/lib/env/public';
import { backOfficeRoles } from '@/lib/env/server';
import { callerOf } from '@/lib/http/trust-proxy';
import type { Me } from '@/lib/shared/back-office';

/**
 * Who may see personal data, decided on the server for every request to the back office.
 *
 * - Embedded (no Sanity project): exactly the rule the local Content Lake applies to its writes, since
 *   whoever passes it may already edit everything: this machine, directly (no proxy), at a loopback name,
 *   from no other origin. The team reaches it on a server through an SSH tunnel to the loopback port.
 * - Hosted: the editor's Sanity token, sent by the Studio's tool. Sanity says who it is (/users/me on the
 *   project's API host, with the project's roles) and BACK_OFFICE_ROLES says whether those roles may.
 */

export type Refusal = { status: 401 | 403 | 503; message: string };
export const isRefusal = (access: Me | Refusal): access is Refusal => 'status' in access;

/** The role that may also read the access log. */
const ADMIN_ROLE = 'administrator';
/** Sanity's answer is trusted this long: a revoked token or role takes at most this to be refused. */
const CACHE_MS = 60_000;
/** Tokens remembered at most: each is a hash and an answer, so a flood of made-up tokens cannot fill memory. */
const CACHE_MAX = 1_000;
const TIMEOUT_MS = 5_000;

const REFUSED = {
  notLocal:
    'The back office answers only a browser on the machine that runs the site, talking to it directly: reach it through an SSH tunnel to its loopback port.',
  noToken: 'The back office needs your Sanity sign-in token: sign in to the Studio again.',
  badToken: 'Sanity does not know this sign-in token (expired or signed out): sign in to the Studio again.',
  role: 'Your roles on this project do not include one that may use the back office (BACK_OFFICE_ROLES).',
  unreachable: 'Sanity could not be asked who you are; try again in a moment.',
} as const;

/**
 * What a browser says of where a request came from (Sec-Fetch-Site): the Studio's own calls are
 * same-origin, and an address typed or a file opened is none. Another page's request that carries no
 * Origin (an image, a no-cors fetch of a GET) cannot read the answer, but would still be logged as a read
 * or an export: refused. Clients that are no browser send nothing and are judged by the rule alone.
 */
const FROM_THE_STUDIO: ReadonlySet<string> = new Set(['same-origin', 'none']);

function embedded(request: Request): Me | Refusal {
  const site = request.headers.get('sec-fetch-site');
  if (site !== null && !FROM_THE_STUDIO.has(site)) return { status: 403, message: REFUSED.notLocal };
  try {
    admit({ kind: 'local' }, request, callerOf(request));
  } catch (error) {
    if (error instanceof LakeError) return { status: 403, message: REFUSED.notLocal };
    throw error;
  }
  return { officer: { id: LOCAL_EDITOR.id, name: LOCAL_EDITOR.name }, admin: true };
}

type SanityUser = { id?: unknown; name?: unknown; roles?: unknown };

const roleNames = (roles: unknown): string[] =>
  Array.isArray(roles)
    ? roles.flatMap((role: unknown) => {
        const name = (role as { name?: unknown } | null)?.name;
        return typeof name === 'string' ? [name] : [];
      })
    : [];

/** Sanity's answer for `token`; throws when Sanity cannot be asked (never remembered). */
async function askSanity(config: SanityConfig, token: string): Promise<Me | Refusal> {
  const client = createClient({ ...sanityClientOptions(config), token, useCdn: false, timeout: TIMEOUT_MS, maxRetries: 1 });
  let user: SanityUser;
  try {
    user = await client.request<SanityUser>({ uri: '/users/me', tag: 'back-office.me' });
  } catch (error) {
    if (error instanceof ClientError && (error.statusCode === 401 || error.statusCode === 403))
      return { status: 401, message: REFUSED.badToken };
    throw error;
  }
  // A token Sanity does not know can still get a 200 with `{}` (anonymous): only a user id names someone.
  if (typeof user?.id !== 'string' || !user.id) return { status: 401, message: REFUSED.badToken };
  const roles = roleNames(user.roles);
  const allowed = backOfficeRoles();
  if (!roles.some((role) => allowed.includes(role))) return { status: 403, message: REFUSED.role };
  return {
    officer: { id: user.id, name: typeof user.name === 'string' && user.name ? user.name : user.id },
    admin: roles.includes(ADMIN_ROLE),
  };
}

const answers = new Map<string, { until: number; answer: Promise<Me | Refusal> }>();

function remembered(config: SanityConfig, token: string): Promise<Me | Refusal> {
  // By a hash: the cache holds no token that could be used if memory were read.
  const key = createHash('sha256').update(token).digest('base64url');
  const now = Date.now();
  const known = answers.get(key);
  if (known && known.until > now) return known.answer;
  answers.delete(key);
  if (answers.size >= CACHE_MAX) answers.delete(answers.keys().next().value!);
  const answer = askSanity(config, token);
  answers.set(key, { until: now + CACHE_MS, answer });
  answer.catch(() => answers.delete(key));
  return answer;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

async function hosted(config: SanityConfig, request: Request): Promise<Me | Refusal> {
  const token = BEARER.exec(request.headers.get('authorization') ?? '')?.[1];
  if (!token) return { status: 401, message: REFUSED.noToken };
  try {
    return await remembered(config, token);
  } catch (error) {
    console.error('back office: Sanity could not be asked who a token is:', (error as Error)?.message);
    return { status: 503, message: REFUSED.unreachable };
  }
}

/** The officer asking, or why not: 401 (no or unknown token), 403 (not allowed from there, or in that role), 503. */
export function checkOfficeAccess(request: Request): Promise<Me | Refusal> {
  const config = sanityConfig();
  return config ? hosted(config, request) : Promise.resolve(embedded(request));
}
