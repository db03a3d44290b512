import 'server-only';

import { optional } from './settings';

/**
 * The back office's settings (app/api/back-office): who may use it on a hosted Sanity project, and the
 * key its record of notices names erased addresses by.
 */

/** The default: Sanity's project administrators, and no one else. */
export const DEFAULT_OFFICE_ROLES = ['administrator'];
const ROLE = /^[a-z0-9][a-z0-9_-]*$/i;

/**
 * BACK_OFFICE_ROLES: the names of the project roles (Sanity's `roles[].name`, e.g. administrator,
 * editor, or a custom role's name) whose members may see personal data, comma-separated.
 */
export function backOfficeRoles(): string[] {
  const raw = optional('BACK_OFFICE_ROLES');
  if (raw === undefined) return DEFAULT_OFFICE_ROLES;
  const roles = raw.split(',').map((role) => role.trim());
  if (roles.some((role) => !ROLE.test(role)))
    throw new Error(`BACK_OFFICE_ROLES must be role names separated by commas, such as "administrator,editor", got "${raw}".`);
  return roles;
}

/** 32 random bytes written out (`openssl rand -base64 32` gives 44 characters): shorter is guessable. */
const MIN_KEY_LENGTH = 32;

/**
 * BACK_OFFICE_HMAC_KEY: the secret with which the record of notices names an erased address (an HMAC,
 * never the address). Every instance must have the same one, and it must never change, or "was this
 * address told?" can no longer be answered for those erased before. Unset: the embedded store's own key
 * file in DATA_DIR (lib/back-office/address-hmac.ts), which a hosted store cannot use.
 */
export function backOfficeHmacKey(): string | undefined {
  const key = optional('BACK_OFFICE_HMAC_KEY');
  if (key !== undefined && key.length < MIN_KEY_LENGTH)
    // Not the value: it is a secret.
    throw new Error(`BACK_OFFICE_HMAC_KEY must be at least ${MIN_KEY_LENGTH} characters (e.g. \`openssl rand -base64 32\`).`);
  return key;
}
