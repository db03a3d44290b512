/** What /studio shows where the local Content Lake refuses this browser: why, and how to edit instead. */
export function EditingOff({ reason }: { reason: string }) {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: '40rem', margin: '4rem auto', padding: '0 1rem', lineHeight: 1.6 }}>
      <h1>Editing is off here</h1>
      <p role="alert">{reason}</p>
      <p>
        Without a Sanity project, the site&apos;s content lives in <code>seed/production.ndjson</code>, and the Studio edits it only in a
        browser on the machine that runs the site: run <code>npm run dev</code> there and open <code>http://localhost:3000/studio</code>. A
        commit of the changed file ships the edits.
      </p>
      <p>
        To edit a deployed site, connect a Sanity project: set <code>NEXT_PUBLIC_SANITY_PROJECT_ID</code> and{' '}
        <code>NEXT_PUBLIC_SANITY_DATASET</code> (see <code>.env.example</code>) and load the content with{' '}
        <code>npm run content:import</code>.
      </p>
    </main>
  );
}
