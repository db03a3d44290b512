// Plain JavaScript: the server bundle, the embedded store's worker thread and the scripts all import it.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The app's own directory: the repo under `next dev` / `next start`, the `.next/standalone` folder
 * (wherever it is copied) for the standalone server. Files the server reads at run time are found from
 * here, not from process.cwd(), so a server started from any directory finds them. In the server
 * bundle Turbopack computes import.meta.url at run time from where the build lies (its runtime's
 * resolveAbsolutePath), so this is the build's parent there too, not the machine that built it.
 */
export const APP_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * A path inside the app. The ignore comment keeps Turbopack from tracing a directory it cannot know at
 * build time (the whole project); the files needed at run time are listed in next.config.ts.
 *
 * @param {...string} segments
 * @returns {string}
 */
export const appPath = (...segments) => path.join(/* turbopackIgnore: true */ APP_ROOT, ...segments);
