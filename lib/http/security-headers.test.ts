import { describe, expect, it } from 'vitest';

import { studioHeaders } from './security-headers';

/** The Studio's policy as directive → sources. */
function studioPolicy(services: Parameters<typeof studioHeaders>[0]): Record<string, string[]> {
  const policy = studioHeaders(services)['Content-Security-Policy']!;
  return Object.fromEntries(
    policy
      .split('; ')
      .map((directive) => directive.split(' '))
      .map(([name, ...sources]) => [name, sources]),
  );
}

describe("the Studio's Content-Security-Policy", () => {
  it('on the embedded default, lets it reach the site and the local lake alone: no Sanity host', () => {
    const policy = studioPolicy({});
    expect(policy['connect-src']).toEqual(["'self'", 'http://*.localhost:*', 'ws://localhost:*', 'ws://127.0.0.1:*']);
    expect(policy['script-src']).toEqual(["'self'", "'unsafe-inline'"]);
    expect(policy['img-src']).toEqual(["'self'", 'data:', 'blob:']);
    expect(studioHeaders({})['Content-Security-Policy']).not.toMatch(/sanity|googleusercontent|githubusercontent/);
  });

  it("with a project, lets it reach the project's API and Sanity's services, its bridge script and its images", () => {
    const policy = studioPolicy({ sanityProjectId: 'abc123' });
    expect(policy['connect-src']).toEqual([
      "'self'",
      'https://api.sanity.io',
      'wss://api.sanity.io',
      'https://core.sanity-cdn.com',
      'https://sanity-cdn.com',
      'https://abc123.api.sanity.io',
      'wss://abc123.api.sanity.io',
      'https://abc123.apicdn.sanity.io',
    ]);
    expect(policy['script-src']).toEqual(["'self'", "'unsafe-inline'", 'https://core.sanity-cdn.com']);
    expect(policy['img-src']).toContain('https://cdn.sanity.io');
  });
});
