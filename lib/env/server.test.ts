import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it, vi } from 'vitest';

import { configuredServices, siteHeaders, studioHeaders } from '@/lib/http/security-headers';
import { sanityClientOptions, sanityConfig } from './public';
import { redisLocation } from './redis';
import {
  checkConfiguration,
  mailFrom,
  rateLimit,
  redisUrl,
  smtpTimeoutMs,
  smtpUrl,
  storeFsync,
  storeTimeoutMs,
  supabaseSecretKey,
} from './server';

/** Every check, each message naming the variable; the start-up itself is tested over HTTP (tests/e2e/faults.spec.ts). */
afterEach(() => vi.unstubAllEnvs());

describe('number settings', () => {
  it.each(['1e3', '0x10', '5 per minute', '-5', '5.5', '', '  '])('refuses RATE_LIMIT_MAX=%j unless blank (the default)', (raw) => {
    vi.stubEnv('RATE_LIMIT_MAX', raw);
    if (raw.trim() === '') expect(rateLimit().max).toBe(5);
    else expect(() => rateLimit()).toThrow(`RATE_LIMIT_MAX must be a whole number from 1 to 1000000000, got "${raw}".`);
  });

  it('takes digits with surrounding spaces, and refuses 0 and values past the range', () => {
    vi.stubEnv('RATE_LIMIT_MAX', ' 20 ');
    expect(rateLimit().max).toBe(20);
    vi.stubEnv('RATE_LIMIT_WINDOW_SECONDS', '0');
    expect(() => rateLimit()).toThrow('RATE_LIMIT_WINDOW_SECONDS must be a whole number from 1 to 604800, got "0".');
    vi.stubEnv('RATE_LIMIT_WINDOW_SECONDS', '604801');
    expect(() => rateLimit()).toThrow('RATE_LIMIT_WINDOW_SECONDS');
  });

  it('STORE_TIMEOUT_SECONDS: 10 s by default, decimals allowed, 0.1 to 300', () => {
    expect(storeTimeoutMs()).toBe(10_000);
    vi.stubEnv('STORE_TIMEOUT_SECONDS', '2.5');
    expect(storeTimeoutMs()).toBe(2_500);
    for (const raw of ['0', '0.05', '301', '10s', 'Infinity', 'NaN']) {
      vi.stubEnv('STORE_TIMEOUT_SECONDS', raw);
      expect(() => storeTimeoutMs()).toThrow(`STORE_TIMEOUT_SECONDS must be a number from 0.1 to 300, got "${raw}".`);
    }
  });

  it('STORE_FSYNC is on unless set to off', () => {
    expect(storeFsync()).toBe(true);
    vi.stubEnv('STORE_FSYNC', 'off');
    expect(storeFsync()).toBe(false);
    vi.stubEnv('STORE_FSYNC', 'false');
    expect(() => storeFsync()).toThrow('STORE_FSYNC must be "on" or "off", got "false".');
  });
});

describe('REDIS_URL', () => {
  it('is optional, takes redis:// and rediss:// URLs, and refuses anything else without echoing it (it may hold a password)', () => {
    expect(redisUrl()).toBeUndefined();
    vi.stubEnv('REDIS_URL', ' rediss://:secret@cache.internal:6380/2 ');
    expect(redisUrl()).toBe('rediss://:secret@cache.internal:6380/2');
    expect(redisLocation(redisUrl()!)).toBe('rediss://cache.internal:6380/2');
    for (const raw of ['http://cache:6379', 'cache:6379', 'redis://', 'not a url :secret@']) {
      vi.stubEnv('REDIS_URL', raw);
      expect(() => redisUrl()).toThrow('REDIS_URL must be a redis:// or rediss:// URL such as redis://127.0.0.1:6379.');
    }
  });
});

describe('checkConfiguration', () => {
  it('passes the defaults', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'config-ok-'));
    vi.stubEnv('DATA_DIR', dir);
    try {
      await expect(checkConfiguration()).resolves.toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('lists every mistake at once, each pair once, naming each variable', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'config-bad-'));
    await writeFile(path.join(dir, 'file'), '');
    vi.stubEnv('NEXT_PUBLIC_SUPABASE_URL', 'not a url');
    vi.stubEnv('NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY', '');
    vi.stubEnv('NEXT_PUBLIC_SUPABASE_ANON_KEY', '');
    vi.stubEnv('NEXT_PUBLIC_SANITY_PROJECT_ID', 'abc123');
    vi.stubEnv('RATE_LIMIT_MAX', 'many');
    vi.stubEnv('CONTENT_FILE', path.join(dir, 'missing.ndjson'));
    try {
      const error = (await checkConfiguration().catch((caught: unknown) => caught)) as Error;
      const lines = error.message.split('\n').slice(1);
      expect(lines).toEqual([
        '- NEXT_PUBLIC_SANITY_DATASET is not set, but NEXT_PUBLIC_SANITY_PROJECT_ID is. Set both or neither.',
        '- NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY is not set, but NEXT_PUBLIC_SUPABASE_URL is. Set both or neither.',
        '- RATE_LIMIT_MAX must be a whole number from 1 to 1000000000, got "many".',
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a Supabase URL that is not http(s), and a DATA_DIR that cannot be written', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'config-dir-'));
    await writeFile(path.join(dir, 'file'), '');
    vi.stubEnv('DATA_DIR', path.join(dir, 'file', 'data'));
    try {
      await expect(checkConfiguration()).rejects.toThrow(`DATA_DIR ${path.join(dir, 'file', 'data')} cannot be written`);
      vi.stubEnv('NEXT_PUBLIC_SUPABASE_URL', 'ftp://example.com');
      vi.stubEnv('NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY', 'key');
      vi.stubEnv('SUPABASE_SECRET_KEY', 'secret');
      // Without an SMTP server the emails are files in DATA_DIR, with Supabase too.
      await expect(checkConfiguration()).rejects.toThrow('DATA_DIR');
      vi.stubEnv('SMTP_URL', 'smtp://mail.example.com');
      // With Supabase and an SMTP server DATA_DIR holds nothing, so it is not checked.
      await expect(checkConfiguration()).rejects.toThrow(
        /^Configuration error[^\n]*\n- NEXT_PUBLIC_SUPABASE_URL must be an http\(s\) URL[^\n]*$/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the store and email settings', () => {
  it('SUPABASE_SECRET_KEY: required with Supabase, never the publishable key', async () => {
    vi.stubEnv('NEXT_PUBLIC_SUPABASE_URL', 'https://project.supabase.co');
    vi.stubEnv('NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY', 'public-key');
    vi.stubEnv('SMTP_URL', 'smtp://mail.example.com');
    await expect(checkConfiguration()).rejects.toThrow(/\n- SUPABASE_SECRET_KEY is not set, but NEXT_PUBLIC_SUPABASE_URL is: [^\n]*$/);
    vi.stubEnv('SUPABASE_SECRET_KEY', 'public-key');
    await expect(checkConfiguration()).rejects.toThrow(/\n- SUPABASE_SECRET_KEY is the publishable key[^\n]*$/);
    vi.stubEnv('SUPABASE_SECRET_KEY', 'secret-key');
    expect(supabaseSecretKey()).toBe('secret-key');
    await expect(checkConfiguration()).resolves.toBeUndefined();
  });

  it('SMTP_URL: smtp:// or smtps:// with a host, refused without echoing it (it may hold a password)', () => {
    expect(smtpUrl()).toBeUndefined();
    vi.stubEnv('SMTP_URL', ' smtps://user:secret@smtp.example.com:465 ');
    expect(smtpUrl()).toBe('smtps://user:secret@smtp.example.com:465');
    for (const raw of ['https://smtp.example.com', 'smtp.example.com:25', 'smtp://', 'not a url :secret@']) {
      vi.stubEnv('SMTP_URL', raw);
      expect(() => smtpUrl()).toThrow('SMTP_URL must be an smtp:// or smtps:// URL such as smtps://user:password@smtp.example.com:465.');
    }
  });

  it('MAIL_FROM: no-reply@ the site by default, else one address the forms would accept (no line breaks: no header injection)', () => {
    vi.stubEnv('NEXT_PUBLIC_SITE_URL', 'https://hallway.example');
    expect(mailFrom()).toBe('no-reply@hallway.example');
    vi.stubEnv('MAIL_FROM', 'notices@hallway.example');
    expect(mailFrom()).toBe('notices@hallway.example');
    for (const raw of ['Hallway <notices@hallway.example>', 'notices@hallway.example\r\nBcc: all@example.com', 'nobody']) {
      vi.stubEnv('MAIL_FROM', raw);
      expect(() => mailFrom()).toThrow('MAIL_FROM must be an email address such as no-reply@example.com');
    }
  });

  it('SMTP_TIMEOUT_SECONDS: 30 s by default, 1 to 300', () => {
    expect(smtpTimeoutMs()).toBe(30_000);
    vi.stubEnv('SMTP_TIMEOUT_SECONDS', '2.5');
    expect(smtpTimeoutMs()).toBe(2_500);
    vi.stubEnv('SMTP_TIMEOUT_SECONDS', '0.5');
    expect(() => smtpTimeoutMs()).toThrow('SMTP_TIMEOUT_SECONDS must be a number from 1 to 300, got "0.5".');
  });
});

describe('SANITY_API_HOST', () => {
  const project = () => {
    vi.stubEnv('NEXT_PUBLIC_SANITY_PROJECT_ID', 'abc123');
    vi.stubEnv('NEXT_PUBLIC_SANITY_DATASET', 'production');
  };

  it("is every Sanity client's API origin, and the CSP's: the site's, and the Studio's with the project id before it", () => {
    project();
    vi.stubEnv('SANITY_API_HOST', ' http://localhost:4555/ ');
    expect(sanityConfig()).toMatchObject({ projectId: 'abc123', apiHost: 'http://localhost:4555' });
    expect(sanityClientOptions(sanityConfig()!)).toMatchObject({ apiHost: 'http://localhost:4555', useProjectHostname: false });
    const site = siteHeaders(configuredServices())['Content-Security-Policy'];
    expect(site).toContain("connect-src 'self' http://localhost:4555 ws://localhost:4555;");
    expect(site).not.toContain('sanity.io ');
    expect(studioHeaders(configuredServices())['Content-Security-Policy']).toContain('http://abc123.localhost:4555');
  });

  it("is Sanity's own hosts when unset", () => {
    project();
    expect(sanityConfig()?.apiHost).toBeUndefined();
    expect(sanityClientOptions(sanityConfig()!)).not.toHaveProperty('useProjectHostname');
    expect(siteHeaders(configuredServices())['Content-Security-Policy']).toContain('https://abc123.api.sanity.io');
  });

  it.each(['localhost:4555', 'ftp://example.com', 'http://example.com/v1', 'http://example.com?x=1', 'not a url'])(
    'refuses %s at start, naming it',
    async (value) => {
      project();
      vi.stubEnv('SANITY_API_HOST', value);
      await expect(checkConfiguration()).rejects.toThrow(
        `SANITY_API_HOST must be an http(s) origin such as http://127.0.0.1:4555, got "${value}".`,
      );
    },
  );
});

describe('the CSP under next dev', () => {
  it("allows eval() for React's development build only, on the site and in the Studio", () => {
    const scriptSrc = (headers: Record<string, string>) =>
      headers['Content-Security-Policy']?.split('; ').find((directive) => directive.startsWith('script-src '));
    expect(scriptSrc(siteHeaders(configuredServices()))).toBe("script-src 'self' 'unsafe-inline'");
    const development = { ...configuredServices(), development: true };
    expect(scriptSrc(siteHeaders(development))).toBe("script-src 'self' 'unsafe-inline' 'unsafe-eval'");
    expect(scriptSrc(studioHeaders(development))).toContain("'unsafe-eval'");
  });
});
