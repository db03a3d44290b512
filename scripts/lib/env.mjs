/** Settings of the scripts from their environment. */

/** A positive whole number from the environment variable `name`, or `fallback` when it is unset or empty. */
export function envInt(name, fallback) {
  const raw = process.env[name];
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number, got "${raw}"`);
  return value;
}
