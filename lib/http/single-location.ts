import 'server-only';

import http from 'node:http';

const INSTALLED = Symbol.for('hallway.singleLocation');

/**
 * Next sends a cached redirect with its Location header twice: its render sets it, and serving the
 * cached response appends it again (vercel/next.js#82117, open in 16.4; with Cache Components every
 * redirect of /privacy/versions/<date> is one). Browsers follow two equal headers, but fetch() and
 * proxies that merge repeated headers read "/a, /a", a path that does not exist. This drops an append
 * that repeats the value already set, as Netlify's Next adapter does (opennextjs-netlify#3332).
 */
export function installSingleLocation(): void {
  const proto = http.ServerResponse.prototype as http.ServerResponse & { [INSTALLED]?: true };
  if (proto[INSTALLED]) return;
  proto[INSTALLED] = true;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- the original, called below with the response as `this`
  const append = proto.appendHeader;
  proto.appendHeader = function (this: http.ServerResponse, name: string, value: string | readonly string[]) {
    if (name.toLowerCase() === 'location' && this.getHeader('location') === value) return this;
    return Reflect.apply(append, this, [name, value]);
  };
}
