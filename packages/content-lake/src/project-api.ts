/**
 * What the Studio asks of Sanity's API besides its data, answered so it runs with no project on
 * sanity.io (../shared/STUDIO-API.md lists each call and what it does on failure): the signed-in user and
 * their role, the dataset's grants, the project, the features the lake has (content releases, scheduled
 * drafts) and the bound on releases, and "off" or "empty" for upsells, the old scheduled publishing, saved
 * UI state, schema uploads and telemetry. Each answer has the shape the Studio reads.
 */
import { MAX_ACTIVE_RELEASES } from './releases.ts';

export type User = { id: string; name: string; email: string; role: string; roles: { name: string; title: string }[] };

/** Everything, for whoever may use the lake (the grant Sanity gives an administrator). */
export const FULL_ACCESS = [{ filter: '_id in path("**")', permissions: ['read', 'create', 'update', 'history'] }];

const roleTitle = (name: string) => name[0]!.toUpperCase() + name.slice(1).replace(/-/g, ' ');

/** A user of the lake: an administrator unless `roles` names others (the first is also the deprecated `role`). */
export function userNamed(id: string, name: string, roles: readonly string[] = ['administrator']): User {
  return { id, name, email: `${id}@localhost`, role: roles[0] ?? '', roles: roles.map((role) => ({ name: role, title: roleTitle(role) })) };
}

/** Sign-in providers, for a lake playing sanity.io to a browser with no session: the Studio shows its login screen. */
const PROVIDERS = {
  thirdPartyLogin: true,
  sso: {},
  providers: ['google', 'github', 'sanity'].map((name) => ({
    name,
    title: name === 'sanity' ? 'E-mail / password' : name[0]!.toUpperCase() + name.slice(1),
    url: `https://api.sanity.io/v1/auth/login/${name}`,
  })),
};

type Answer = { status?: number; body: unknown };
type Context = {
  method: string;
  projectId: string;
  dataset: string;
  user: User | undefined;
  /** Who else the history names (commit authors, the dataset file): their names, for the Studio's avatars. */
  author: (id: string) => Promise<{ id: string; name: string; email?: string } | undefined>;
  body: () => Promise<unknown>;
  /** How many releases count toward MAX_ACTIVE_RELEASES now. */
  openReleases: () => number;
};
type Route = [method: string, path: RegExp, answer: (match: RegExpExecArray, context: Context) => Answer | Promise<Answer>];

const ok = (body: unknown): Answer => ({ body });

/**
 * The plan's features the Studio reads: an archived release's page reads the history's retention in days
 * (and crashes without it). None is given: the lake drops history by count, not age, and no archived
 * release is removed on a date, which 0 days keeps the page from announcing.
 */
const SUBSCRIPTIONS = { subscriptions: [], featureTypes: { retention: { features: [{ attributes: { maxRetentionDays: 0 } }] } } };

/** What the Studio's gates look for in /features (../shared/STUDIO-HISTORY.md §2, "What gates the feature"). */
export const FEATURES = ['contentReleases', 'singleDocRelease'];

/** Whether one more release may be made; at the bound, a 403 with the same body, which the Studio reads as "at the limit". */
function releaseLimits({ openReleases }: Context): Answer {
  const count = openReleases();
  return {
    status: count >= MAX_ACTIVE_RELEASES ? 403 : 200,
    body: {
      data: {
        orgActiveReleaseCount: count,
        orgMeteredActiveReleaseCount: count,
        datasetReleaseLimit: MAX_ACTIVE_RELEASES,
        // No bound across projects: the lake is the whole "organisation". (0 would read as misconfigured.)
        orgActiveReleaseLimit: null,
      },
    },
  };
}

function project({ projectId, user }: Context): Answer {
  const members = user ? [{ id: user.id, role: user.role, roles: user.roles, isCurrentUser: true, isRobot: false }] : [];
  return ok({
    id: projectId,
    displayName: 'Local content',
    studioHost: null,
    isBlocked: false,
    isDisabled: false,
    members,
    metadata: {},
    features: [],
  });
}

const ROUTES: Route[] = [
  ['GET', /^\/users\/me$/, (_, { user }) => ok(user ?? {})],
  [
    'GET',
    /^\/users\/([^/]+)$/,
    async ([, ids], { user, author }) =>
      ok(
        await Promise.all(
          ids!.split(',').map(async (id) => (user && id === user.id ? userInfo(user) : userInfo((await author(id)) ?? { id, name: id }))),
        ),
      ),
  ],
  ['GET', /^\/auth\/id$/, () => ok({})],
  ['GET', /^\/auth\/providers$/, () => ok(PROVIDERS)],
  ['GET', /^\/(data\/)?ping(\/[^/]+)?$/, () => ok({})],
  ['GET', /^\/projects\/([^/]+)$/, (_, context) => project(context)],
  ['GET', /^\/projects\/[^/]+\/datasets$/, (_, { dataset }) => ok([{ name: dataset, aclMode: 'private' }])],
  ['GET', /^\/projects\/[^/]+\/datasets\/[^/]+\/acl$/, () => ok(FULL_ACCESS)],
  ['GET', /^\/projects\/[^/]+\/grants$/, () => ok({})],
  ['GET', /^\/projects\/[^/]+\/user-applications$/, () => ok([])],
  ['POST', /^\/projects\/[^/]+\/user-applications\/.*$/, () => ok({})],
  ['GET', /^\/features$/, () => ok(FEATURES)],
  ['GET', /^\/projects\/[^/]+\/new-content-release-allowed$/, (_, context) => releaseLimits(context)],
  ['GET', /^\/subscriptions\/project\/[^/]+$/, () => ok(SUBSCRIPTIONS)],
  ['GET', /^\/schedules\/[^/]+\/[^/]+$/, () => ok({ schedules: [] })],
  ['GET', /^\/users\/me\/keyvalue\/.+$/, () => ok([])],
  ['PUT', /^\/users\/me\/keyvalue$/, async (_, { body }) => ok(await body())],
  ['GET', /^\/journey\/.*$/, () => ok({})],
  ['POST', /^\/journey\/.*$/, () => ok({})],
  ['GET', /^\/help$/, () => ok({ resources: [] })],
  ['POST', /^\/descriptors\/(claim|synchronize)$/, () => ok({ synchronization: null })],
  ['GET', /^\/intake\/telemetry-status$/, () => ok({ status: 'denied' })],
  ['POST', /^\/intake\/batch$/, () => ok({})],
];

function userInfo(user: { id: string; name: string; email?: string }) {
  return { id: user.id, displayName: user.name, email: user.email ?? null, imageUrl: null };
}

/** The answer to one of these calls, or undefined when `path` is none of them. */
export async function projectAnswer(path: string, context: Context): Promise<Answer | undefined> {
  for (const [method, pattern, answer] of ROUTES) {
    const match = pattern.exec(path);
    if (match && method === context.method) return answer(match, context);
  }
  return undefined;
}
