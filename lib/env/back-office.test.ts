import { afterEach, describe, expect, it, vi } from 'vitest';

import { backOfficeHmacKey, backOfficeRoles } from './back-office';

afterEach(() => vi.unstubAllEnvs());

describe("the back office's settings", () => {
  it('BACK_OFFICE_ROLES: administrator by default, else role names separated by commas', () => {
    vi.stubEnv('BACK_OFFICE_ROLES', '');
    expect(backOfficeRoles()).toEqual(['administrator']);
    vi.stubEnv('BACK_OFFICE_ROLES', ' editor , custom-reviewer ');
    expect(backOfficeRoles()).toEqual(['editor', 'custom-reviewer']);
    vi.stubEnv('BACK_OFFICE_ROLES', 'editor,,admin istrator');
    expect(() => backOfficeRoles()).toThrow('BACK_OFFICE_ROLES must be role names separated by commas');
  });

  it('BACK_OFFICE_HMAC_KEY: optional, at least 32 characters, refused without echoing it (it is a secret)', () => {
    vi.stubEnv('BACK_OFFICE_HMAC_KEY', '');
    expect(backOfficeHmacKey()).toBeUndefined();
    vi.stubEnv('BACK_OFFICE_HMAC_KEY', 'short-secret');
    expect(() => backOfficeHmacKey()).toThrow(/^BACK_OFFICE_HMAC_KEY must be at least 32 characters[^]*$/);
    expect(() => backOfficeHmacKey()).not.toThrow(/short-secret/);
    vi.stubEnv('BACK_OFFICE_HMAC_KEY', 'k'.repeat(44));
    expect(backOfficeHmacKey()).toBe('k'.repeat(44));
  });
});
