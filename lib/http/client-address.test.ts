import { describe, expect, it } from 'vitest';

import { quotaKey, resolveClientAddress } from './client-address';

describe('resolveClientAddress', () => {
  it('with no trusted proxy, is the TCP peer whatever X-Forwarded-For claims', () => {
    expect(resolveClientAddress('198.51.100.7', '203.0.113.5', 0)).toBe('203.0.113.5');
    expect(resolveClientAddress('198.51.100.7, 198.51.100.8', '203.0.113.5', 0)).toBe('203.0.113.5');
    expect(resolveClientAddress(undefined, '203.0.113.5', 0)).toBe('203.0.113.5');
  });

  it('believes one more entry, from the right, per trusted proxy', () => {
    // nginx overwrites the header with the address it saw; the peer is nginx itself.
    expect(resolveClientAddress('198.51.100.7', '127.0.0.1', 1)).toBe('198.51.100.7');
    // A client-forged entry in front of the proxy's is ignored.
    expect(resolveClientAddress('6.6.6.6, 198.51.100.7', '127.0.0.1', 1)).toBe('198.51.100.7');
    expect(resolveClientAddress('6.6.6.6, 198.51.100.7, 10.0.0.2', '127.0.0.1', 2)).toBe('198.51.100.7');
  });

  it('with fewer entries than proxies, takes the leftmost, and says unknown when there is nothing', () => {
    expect(resolveClientAddress(undefined, '127.0.0.1', 2)).toBe('127.0.0.1');
    expect(resolveClientAddress(' , ', undefined, 0)).toBe('unknown');
  });
});

describe('quotaKey', () => {
  it('keeps IPv4 addresses, unwrapping IPv4-mapped IPv6', () => {
    expect(quotaKey('198.51.100.7')).toBe('198.51.100.7');
    expect(quotaKey('::ffff:198.51.100.7')).toBe('198.51.100.7');
  });

  it('counts a whole IPv6 /64 as one client, however it is written', () => {
    const key = quotaKey('2001:db8:1:2::1');
    expect(key).toBe('2001:db8:1:2::/64');
    expect(quotaKey('2001:0DB8:0001:0002:ffff:ffff:ffff:ffff')).toBe(key);
    expect(quotaKey('[2001:db8:1:2:0:0:0:9]')).toBe(key);
    expect(quotaKey('2001:db8:1:3::1')).not.toBe(key);
    expect(quotaKey('::1')).toBe('0:0:0:0::/64');
  });

  it('passes anything that is not an address through as its own key', () => {
    expect(quotaKey('unknown')).toBe('unknown');
  });
});
