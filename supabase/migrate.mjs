// Plain JavaScript so `node` can run it directly (scripts, test harness) as well as the app.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Applies supabase/bootstrap.sql (the roles a Supabase database already has),
 * then every migration in file-name order not yet in public.schema_migrations,
 * each in its own transaction and recorded there, so each runs once.
 *
 * @param {import('@electric-sql/pglite').PGlite} db
 * @param {string} supabaseDir the supabase/ folder holding bootstrap.sql and migrations/
 * @returns {Promise<string[]>} the migrations applied by this call
 */
export async function migrate(db, supabaseDir) {
  await db.exec(await readFile(path.join(supabaseDir, 'bootstrap.sql'), 'utf8'));
  const { rows } = await db.query('select version from public.schema_migrations');
  const applied = new Set(rows.map((row) => /** @type {{ version: string }} */ (row).version));
  const dir = path.join(supabaseDir, 'migrations');
  const pending = (await readdir(dir)).filter((file) => file.endsWith('.sql') && !applied.has(file)).sort();
  for (const file of pending) {
    const sql = await readFile(path.join(dir, file), 'utf8');
    await db.transaction(async (tx) => {
      await tx.exec(sql);
      await tx.query('insert into public.schema_migrations (version) values ($1)', [file]);
    });
  }
  return pending;
}
