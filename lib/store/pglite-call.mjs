// Plain JavaScript, as pglite-core.mjs: the app imports it, and so does pglite-worker.mjs, which runs in
// a worker thread as a plain file, not bundled.
/** @typedef {import('@electric-sql/pglite').PGlite} PGlite */

/** The roles a call may take, as PostgREST maps the public key and the secret key. */
const CALL_ROLES = ['anon', 'service_role'];

/** Per database: whether each function returns a set (rows) or one value, and whether that value is void. */
const shapes = new WeakMap();

/** @param {PGlite} db @param {string} fn */
async function shapeOf(db, fn) {
  const known = shapes.get(db) ?? new Map();
  shapes.set(db, known);
  if (!known.has(fn)) {
    const { rows } = await db.query(
      `select proretset as set, prorettype = 'void'::regtype as void from pg_proc where proname = $1 and pronamespace = 'public'::regnamespace`,
      [fn],
    );
    if (rows.length !== 1) throw new Error(`no single function public.${fn}`);
    known.set(fn, rows[0]);
  }
  return /** @type {{ set: boolean, void: boolean }} */ (known.get(fn));
}

/**
 * Calls public.`fn` with named `args` as `role`, in a transaction, as PostgREST runs an rpc call for the
 * public key (anon) or the secret key (service_role), so the same grants decide. Resolves as PostgREST
 * answers, in JSON's terms (a time as an ISO string): a set-returning function's rows, another's value
 * (null for void).
 *
 * @param {PGlite} db
 * @param {'anon' | 'service_role'} role
 * @param {string} fn
 * @param {Record<string, unknown>} args
 * @returns {Promise<unknown>}
 */
export async function callAs(db, role, fn, args) {
  const names = Object.keys(args);
  // Names come from this codebase (database.types.ts), never from a visitor; still, plain names only.
  if (!CALL_ROLES.includes(role) || ![fn, ...names].every((name) => /^[a-z_]+$/.test(name)))
    throw new Error(`bad call of ${fn} as ${role}`);
  const shape = await shapeOf(db, fn);
  const call = `public.${fn}(${names.map((name, index) => `${name} => $${index + 1}`).join(', ')})`;
  const result = await db.transaction(async (tx) => {
    await tx.query(`select set_config('role', $1, true)`, [role]);
    if (shape.set) return (await tx.query(`select * from ${call}`, Object.values(args))).rows;
    const { rows } = await tx.query(`select ${call} as value`, Object.values(args));
    return shape.void ? null : /** @type {{ value: unknown }} */ (rows[0]).value;
  });
  return JSON.parse(JSON.stringify(result) ?? 'null');
}
