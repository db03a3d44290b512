// Plain JavaScript, so that an older Node reads it: the message must come before anything it cannot run.
import { readFileSync } from 'node:fs';

/**
 * The Node.js this project needs (package.json's `engines.node`), checked before a command does any
 * work: an older Node would install, build for a minute and a half, then fail to load the TypeScript the
 * server runs. `npm ci` refuses it by itself (.npmrc sets engine-strict); `next` commands (next.config.ts),
 * `npm test` (scripts/test.mjs) and `.ci/run` refuse it here, saying how to get the right one.
 */
const { engines } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
/** engines.node, e.g. "^22.20.0 || >=24": each alternative a caret range or a lower bound. */
export const REQUIRED_NODE = engines.node;

const parts = (version) =>
  version
    .replace(/^v/, '')
    .split('.')
    .map((part) => Number(part) || 0);
const atLeast = (have, want) => {
  for (let i = 0; i < 3; i += 1) if ((have[i] ?? 0) !== (want[i] ?? 0)) return (have[i] ?? 0) > (want[i] ?? 0);
  return true;
};

/** Whether `version` meets `range` (the forms engines.node uses here: "^X.Y.Z" and ">=X.Y.Z", joined by "||"). */
export function satisfies(version, range = REQUIRED_NODE) {
  const have = parts(version);
  return range.split('||').some((alternative) => {
    const [, operator, bound] = /^\s*(\^|>=)\s*([\d.]+)\s*$/.exec(alternative) ?? [];
    if (!bound) throw new Error(`engines.node: cannot read "${alternative.trim()}"`);
    const want = parts(bound);
    return atLeast(have, want) && (operator === '>=' || have[0] === want[0]);
  });
}

/** "^22.20.0 || >=24" as "22.20 or a later 22.x, or 24 or newer". */
const spoken = (range) =>
  range
    .split('||')
    .map((alternative) => {
      const [operator, major, minor = '0'] = /(\^|>=)\s*(\d+)(?:\.(\d+))?/.exec(alternative)?.slice(1) ?? [];
      const version = minor === '0' ? major : `${major}.${minor}`;
      return operator === '^' ? `${version} or a later ${major}.x` : `${version} or newer`;
    })
    .join(', or ');

/** What is wrong with `version` (default: this process's Node), or undefined when it will do. */
export function nodeVersionProblem(version = process.versions.node) {
  if (satisfies(version)) return undefined;
  return [
    `This project needs Node.js ${spoken(REQUIRED_NODE)}; this is Node.js ${version.replace(/^v/, '')}.`,
    'Get it with `nvm install` in this folder (.nvmrc names the version we use), or from https://nodejs.org,',
    'then run `npm ci` again.',
  ].join('\n');
}

/** Stops the process with the message when this Node will not do. */
export function requireNodeVersion() {
  const problem = nodeVersionProblem();
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
}
