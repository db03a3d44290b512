import { isIPv6 } from 'node:net';

/**
 * Who sent a request, as far as this server can know. The TCP peer is the only address nobody can
 * forge; each proxy the operator declares (TRUSTED_PROXY_HOPS) vouches for one more X-Forwarded-For
 * entry, counted from the right. Entries further left came from the client and are never believed.
 */
export function resolveClientAddress(forwardedFor: string | undefined, peer: string | undefined, trustedHops: number): string {
  const chain = [...(forwardedFor ?? '').split(','), peer ?? ''].map((entry) => entry.trim()).filter(Boolean);
  if (chain.length === 0) return 'unknown';
  // Fewer entries than declared proxies: the request skipped a proxy; the leftmost entry is the best we have.
  return chain[Math.max(0, chain.length - 1 - trustedHops)]!;
}

/**
 * The key a quota counts against. One IPv6 host routinely holds a whole /64, so a /64 is one client;
 * otherwise an attacker could rotate through billions of addresses on a single machine.
 */
export function quotaKey(address: string): string {
  const bare = address.replace(/^\[|\]$/g, '').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  if (!isIPv6(bare)) return bare;
  const [head = '', tail = ''] = bare.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = bare.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((group) => group.toLowerCase().replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
