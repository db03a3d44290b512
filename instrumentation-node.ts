/** The embedded default's Content Lake: its presence socket, and its dataset read in the background (the schema check takes a second). */
async function startLocalLake(): Promise<void> {
  const { localLake } = await import('@/lib/content/local-lake');
  const { installLakeSocket } = await import('@/lib/content/lake-socket');
  installLakeSocket();
  localLake().catch((error: unknown) =>
    console.error(`The local Content Lake cannot open its dataset:\n${error instanceof Error ? error.message : String(error)}`),
  );
}

/** How long a failed first read of the policy's record waits before the next (Sanity unreachable at start). */
const FOLLOW_RETRY_MS = 60_000;

/**
 * The policy clock armed, and subscribers told of what was announced while no server ran (policy-follow.ts).
 * Pages prerendered before a version's day began are refreshed once, as they may show the version before.
 */
async function followPolicyFromStart(): Promise<void> {
  const { startPolicyClock } = await import('@/lib/policy/policy-clock');
  const { followPolicy } = await import('@/lib/policy/policy-follow');
  const { readFollowedPolicy } = await import('@/lib/content/read-policy');
  const { expireTags } = await import('@/lib/cache/tag-expiry');
  startPolicyClock();
  await expireTags(['privacyPolicy']);
  for (;;) {
    let facts: Awaited<ReturnType<typeof readFollowedPolicy>>;
    try {
      facts = await readFollowedPolicy();
    } catch (error) {
      console.error(`The policy's record could not be read at start; trying again in ${FOLLOW_RETRY_MS / 1000} s`, error);
      await new Promise((resolve) => setTimeout(resolve, FOLLOW_RETRY_MS).unref());
      continue;
    }
    // The record was read: what fails now is the store's part, which followPolicy retries by itself.
    return followPolicy(facts).catch((error: unknown) =>
      console.error(`At start, ${error instanceof Error ? error.message : String(error)}`),
    );
  }
}

/**
 * The server's start (instrumentation.ts): the configuration is checked, every request is given the
 * client address the server can vouch for, a redirect one Location header, and the embedded store is opened, so a mistyped setting or a
 * store another server holds shows at start, not at the first submission. Then this instance's mail
 * sender starts (lib/mail/sender.ts), on either content path.
 */
export async function start(): Promise<void> {
  // `next build` prerenders with no store.
  if (process.env.NEXT_PHASE === 'phase-production-build') return;
  try {
    const { checkConfiguration, trustedProxyHops } = await import('@/lib/env/server');
    const { installTrustProxy } = await import('@/lib/http/trust-proxy');
    const { installSingleLocation } = await import('@/lib/http/single-location');
    const { openStoreAtStart } = await import('@/lib/store/store');
    const { sanityConfig } = await import('@/lib/env/public');
    const { startMailSender } = await import('@/lib/mail/sender');
    await checkConfiguration();
    installTrustProxy(trustedProxyHops());
    installSingleLocation();
    await openStoreAtStart();
    if (!sanityConfig()) await startLocalLake();
    startMailSender();
  } catch (error) {
    // Next logs a throw from register() but keeps serving (checked with next start 16.4): a server
    // that would fail every visitor must not look healthy, so it stops here, with the reason.
    console.error(`The server cannot start.\n${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  void followPolicyFromStart();
  // Which languages have pages, before the first request: until read, proxy.ts answers every language's
  // path with the 404, so that no page renders (and is kept) under a tag the site may not have.
  await readLanguagesUntilRead();
  // Not awaited: the server answers at once; the first publish then finds the schema engine loaded.
  void import('@/lib/content/schema-check')
    .then(({ warmSchemaCheck }) => warmSchemaCheck())
    .catch((error) => console.error('schema engine warm-up failed', error));
}

/** How long to wait before reading the languages again after a failed read at start. */
const LANGUAGES_RETRY_MS = 5_000;

/**
 * Reads the site's languages once before the server answers; if the content cannot be read (hosted Sanity
 * down), the server starts anyway with the default language's pages and keeps trying in the background.
 */
async function readLanguagesUntilRead(): Promise<void> {
  const { readServedLanguages } = await import('@/lib/content/languages');
  const attempt = async (): Promise<boolean> => {
    try {
      await readServedLanguages();
      return true;
    } catch (error) {
      console.error(`the languages could not be read at start; trying again in ${LANGUAGES_RETRY_MS / 1000} s`, error);
      return false;
    }
  };
  if (await attempt()) return;
  const retry = setInterval(() => void attempt().then((read) => read && clearInterval(retry)), LANGUAGES_RETRY_MS);
  retry.unref();
}
