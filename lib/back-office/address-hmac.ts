import 'server-only';

import { createHmac, randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { supabaseConfig } from '@/lib/env/public';
import { backOfficeHmacKey, dataDir } from '@/lib/env/server';

/**
 * The keyed hash that stands for an address once it is erased: the record of notices keeps it in place of
 * the address, and the access log names whom a read was about by it. Only someone who holds the key and
 * presents the address can match it; the store alone names no one (a plain hash of an address is not
 * that: addresses are few enough to hash them all).
 *
 * The key: BACK_OFFICE_HMAC_KEY when set. Else, for the embedded store, 32 random bytes generated once into
 * a file in DATA_DIR that only the server's user may read. A hosted store has no such key of its own: its
 * instances may not share a disk, and a key that differed or changed would answer "not told" wrongly.
 */

export const HMAC_KEY_FILE = 'back-office-hmac.key';
const KEY_BYTES = 32;

export class NoHmacKey extends Error {
  constructor() {
    super('BACK_OFFICE_HMAC_KEY is not set: a hosted store needs it to name erased addresses in its record of notices.');
  }
}

/** The key file's contents: the key, base64url, nothing else. */
const decode = (text: string): Buffer | undefined => {
  const key = Buffer.from(text.trim(), 'base64url');
  return key.length === KEY_BYTES ? key : undefined;
};

/**
 * Writes a new key where none is, or reads the one there. The key is written in full under another name,
 * then linked to the file's name, which fails if one was there first: a second server starting at the same
 * moment reads the first one's whole key, never a half-written file, and never replaces it.
 */
async function keyFile(dir: string): Promise<Buffer> {
  const file = path.join(dir, HMAC_KEY_FILE);
  const existing = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (existing === undefined) {
    await mkdir(dir, { recursive: true });
    const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    await writeFile(draft, `${randomBytes(KEY_BYTES).toString('base64url')}\n`, { mode: 0o600 });
    try {
      await link(draft, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      await rm(draft, { force: true });
    }
    return keyFile(dir);
  }
  const key = decode(existing);
  // A damaged key would silently stop matching every erased address: refuse to go on with it.
  if (!key) throw new Error(`${file} does not hold a back-office key (${KEY_BYTES} bytes, base64url); restore it from a backup.`);
  return key;
}

const KEYS = Symbol.for('hallway.backOfficeHmacKey');
const globals = globalThis as typeof globalThis & { [KEYS]?: Map<string, Promise<Buffer>> };

/** The key, read once per process (per setting); a failed read is tried again next time. */
function hmacKey(): Promise<Buffer> {
  const fromEnv = backOfficeHmacKey();
  if (fromEnv !== undefined) return Promise.resolve(Buffer.from(fromEnv, 'utf8'));
  if (supabaseConfig()) return Promise.reject(new NoHmacKey());
  const dir = dataDir();
  const keys = (globals[KEYS] ??= new Map<string, Promise<Buffer>>());
  let key = keys.get(dir);
  if (!key) {
    key = keyFile(dir);
    keys.set(dir, key);
    key.catch(() => keys.delete(dir));
  }
  return key;
}

/** The address as the store compares it: case and surrounding space make no other person. */
export const normalAddress = (address: string) => address.trim().toLowerCase();

/** HMAC-SHA256 of the normalised address under the server's key, hex. */
export async function addressHmac(address: string): Promise<string> {
  return createHmac('sha256', await hmacKey())
    .update(normalAddress(address), 'utf8')
    .digest('hex');
}
