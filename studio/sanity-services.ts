/**
 * Two calls sanity 5.31.2 makes to Sanity's own services by itself, with no switch in `defineConfig`,
 * sanity.cli.ts, the environment or NextStudio's props:
 *
 * - the version check, `GET ${MODULES_URL}/sanity/latest/^<version>/t<seconds>`, at load and every
 *   15 minutes (PackageVersionStatusProvider);
 * - the feedback probe, `POST ${FEEDBACK_TUNNEL_URL}`, when the navbar's Help button mounts on a screen
 *   600 px wide or more (useFeedbackAvailable).
 *
 * On the embedded default the Studio asks no host but the site (docs/editing-content.md, "Which hosts the
 * Studio asks"), so its page answers both itself before the Studio renders (app/studio/studio.tsx).
 * tests/unit/sanity-services.test.ts finds both URLs and their fetch calls in the installed bundle: an
 * upgrade of `sanity` that moves either fails there, instead of reopening the call in editors' browsers.
 */

/** MODULES_URL (`${MODULES_HOST}/${MODULES_URL_VERSION}/modules`): the version check's, under an import map its `by-app/` one too. */
export const VERSION_CHECK_URL = 'https://sanity-cdn.com/v1/modules/';
/** FEEDBACK_TUNNEL_URL: the probe's, and where the feedback dialog would send. */
export const FEEDBACK_URL = 'https://api.sanity.io/vX/intake/feedback';

/**
 * The installed version is the latest: the Studio then announces no upgrade, which only a change to
 * package.json brings here. The tagged check reads `latest`, the import map's `packageVersion`; an empty body
 * would throw in their `res.json()`, a console error at every check.
 */
export const versionCheckAnswer = (version: string) => ({ latest: version, packageVersion: version });

/** A marked fetch is already this wrapper: installing it again would answer through two. */
const ANSWERING = Symbol.for('studio.sanityServicesAnswered');
type Fetch = typeof fetch & { [ANSWERING]?: true };

const urlOf = (input: RequestInfo | URL) => (typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);

function answerFor(url: string, version: string): Response | undefined {
  if (url.startsWith(VERSION_CHECK_URL)) return Response.json(versionCheckAnswer(version));
  // Not 2xx: the Help menu then leaves out "Send feedback", so nothing is ever sent to Sanity from here.
  if (url.startsWith(FEEDBACK_URL)) return new Response(null, { status: 404, statusText: 'Not Found' });
  return undefined;
}

/**
 * Makes `scope.fetch` (the page's window's) answer the version check and the feedback probe itself, with the
 * installed `version`, and pass every other call on as it came: the same arguments, Request and URL objects
 * included, and the same `this`. Once per scope: a second call (the Studio loaded again in the same page)
 * changes nothing.
 */
export function answerSanityServices(scope: { fetch: typeof fetch }, version: string): void {
  const passOn: Fetch = scope.fetch;
  if (passOn[ANSWERING]) return;
  const answering: Fetch = function (this: unknown, ...args: Parameters<typeof fetch>) {
    const answer = answerFor(urlOf(args[0]), version);
    return answer ? Promise.resolve(answer) : passOn.apply(this, args);
  };
  answering[ANSWERING] = true;
  scope.fetch = answering;
}
