import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import { describe, expect, it } from 'vitest';

import { answerSanityServices, FEEDBACK_URL, VERSION_CHECK_URL } from '@/studio/sanity-services';

/**
 * The Studio's two calls to Sanity's own services, which its page answers on the embedded default
 * (studio/sanity-services.ts): the URLs are read from the installed bundle, so an upgrade of `sanity` that
 * moves either, or stops calling it through the page's fetch, fails here instead of reaching Sanity from
 * editors' browsers. (That no call leaves a whole Studio session: tests/e2e/studio.spec.ts.)
 */

const require = createRequire(import.meta.url);
const bundle = readFileSync(require.resolve('sanity'), 'utf8');
const { version } = require('sanity/package.json') as { version: string };

/** The string constant `name` of the bundle (`name = "…"`, or the production branch of `name = isStaging ? "…" : "…"`). */
function constant(name: string): string | undefined {
  return new RegExp(`\\b${name} = (?:isStaging \\? "[^"]*" : )?"([^"]*)"`).exec(bundle)?.[1];
}

/** A fetch that records how it was called, and answers 200 with the URL it was given. */
function recordingFetch() {
  const calls: { self: unknown; args: unknown[] }[] = [];
  const fetch = function (this: unknown, ...args: unknown[]) {
    calls.push({ self: this, args });
    return Promise.resolve(new Response('passed on'));
  } as typeof globalThis.fetch;
  return { calls, scope: { fetch } };
}

describe("Sanity's services in the installed bundle", () => {
  it("the version check is asked of VERSION_CHECK_URL, through the page's fetch", () => {
    expect(bundle, 'MODULES_URL is built from MODULES_HOST and MODULES_URL_VERSION').toContain(
      'MODULES_URL = `${MODULES_HOST}/${MODULES_URL_VERSION}/modules`',
    );
    expect(`${constant('MODULES_HOST')}/${constant('MODULES_URL_VERSION')}/modules/`).toBe(VERSION_CHECK_URL);
    expect(bundle).toContain('return `${MODULES_URL}/${packageName}/${tag}/^${minVersion.version}/t${timestamp}`;');
    expect(bundle).toContain('(await fetch(getModuleUrl({');
  });

  it("the feedback probe is asked of FEEDBACK_URL, through the page's fetch", () => {
    expect(constant('FEEDBACK_TUNNEL_URL')).toBe(FEEDBACK_URL);
    expect(bundle).toContain('fetch(FEEDBACK_TUNNEL_URL, {');
    // The Help menu shows "Send feedback" only when the probe's answer is 2xx.
    expect(bundle).toContain('setAvailable(response.ok)');
  });
});

describe('answerSanityServices', () => {
  const versionCheck = `${VERSION_CHECK_URL}sanity/latest/^${version}/t${Math.floor(Date.now() / 1000)}`;

  it('answers the version check with the installed version as the latest, as JSON', async () => {
    const { calls, scope } = recordingFetch();
    answerSanityServices(scope, version);
    const answer = await scope.fetch(versionCheck, { headers: { accept: 'application/json' } });
    expect(answer.ok).toBe(true);
    expect(await answer.json()).toEqual({ latest: version, packageVersion: version });
    expect(calls).toEqual([]);
  });

  it('answers the feedback probe with a status that is not 2xx, also when asked with a Request', async () => {
    const { calls, scope } = recordingFetch();
    answerSanityServices(scope, version);
    const probe = await scope.fetch(new Request(FEEDBACK_URL, { method: 'POST', body: '{"dsn":"x"}\n' }));
    expect(probe.ok).toBe(false);
    await expect(probe.arrayBuffer()).resolves.toBeInstanceOf(ArrayBuffer);
    expect((await scope.fetch(new URL(versionCheck))).ok).toBe(true);
    expect(calls).toEqual([]);
  });

  it('passes every other call on unchanged: its arguments, Request and URL objects, and `this`', async () => {
    const { calls, scope } = recordingFetch();
    answerSanityServices(scope, version);
    const request = new Request('https://example.com/api', { method: 'POST', body: 'x' });
    const url = new URL('http://127.0.0.1:3000/api/lake/v1/ping');
    const init = { credentials: 'same-origin' } as const;
    await scope.fetch(request);
    await scope.fetch(url, init);
    await scope.fetch('https://api.sanity.io/v1/help');
    expect(calls).toEqual([
      { self: scope, args: [request] },
      { self: scope, args: [url, init] },
      { self: scope, args: ['https://api.sanity.io/v1/help'] },
    ]);
    expect(await (await scope.fetch('/studio')).text()).toBe('passed on');
  });

  it('is installed once however often it is called', async () => {
    const { calls, scope } = recordingFetch();
    answerSanityServices(scope, version);
    const installed = scope.fetch;
    answerSanityServices(scope, '0.0.1');
    expect(scope.fetch).toBe(installed);
    expect(await (await scope.fetch(versionCheck)).json()).toMatchObject({ latest: version });
    await scope.fetch('/studio');
    expect(calls).toHaveLength(1);
  });
});
