import 'server-only';

/** How every server setting is read (lib/env/server.ts, lib/env/mail.ts): trimmed, blank as unset. */
export function optional(name: string): string | undefined {
  return process.env[name]?.trim() || undefined;
}

/** A number setting: digits only (no "1e3", "0x10" or "5 requests"), inside [min, max]. */
export function numberSetting(name: string, fallback: number, { min, max, whole }: { min: number; max: number; whole: boolean }): number {
  const raw = optional(name);
  if (raw === undefined) return fallback;
  const kind = whole ? 'a whole number' : 'a number';
  const value = (whole ? /^\d+$/ : /^\d+(\.\d+)?$/).test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new Error(`${name} must be ${kind} from ${min} to ${max}, got "${raw}".`);
  }
  return value;
}
