import { describe, expect, it } from 'vitest';

import { cameDirect } from './trust-proxy';

describe('cameDirect', () => {
  it('takes a request with no proxy header as direct, proxies declared or not: an SSH tunnel to the port', () => {
    expect(cameDirect({ host: 'localhost:3000', origin: 'http://localhost:3000' })).toBe(true);
  });

  it.each(['forwarded', 'via', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'x-real-ip'])(
    'takes one with %s as come through a proxy, whatever its value',
    (name) => {
      expect(cameDirect({ host: 'localhost:3000', [name]: '' })).toBe(false);
    },
  );
});
