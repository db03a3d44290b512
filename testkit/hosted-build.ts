import { HOSTED_DIST_DIR, hostedEnv, startHostedLake } from './hosted.ts';
import { runBuild } from './standalone.ts';

/**
 * `next build` of the site configured for the local Content Lake, into HOSTED_DIST_DIR. The pages are
 * prerendered from the hosted API, so the stand-in serves the seed while the build runs. Resolves with
 * the build's exit code.
 */
export async function buildHosted(env: Record<string, string> = {}): Promise<number> {
  const lake = await startHostedLake();
  try {
    await runBuild({ ...process.env, ...env, ...hostedEnv(), NEXT_DIST_DIR: HOSTED_DIST_DIR });
    return 0;
  } catch (error) {
    console.error((error as Error).message);
    return 1;
  } finally {
    await lake.stop();
  }
}
