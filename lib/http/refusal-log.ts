/**
 * Logs refused requests without a line per request, so a flood of them cannot fill the disk with logs:
 * the first refusal is written at once, later ones are counted by reason and written as one summary line
 * per window. Reasons are the caller's fixed messages, never request input, so the counts hold a handful
 * of keys whatever arrives. `verb` words other events counted the same way (the mail senders' failures).
 */

export const REFUSAL_LOG_WINDOW_MS = 60_000;

export type RefusalLog<Reason extends string> = (reason: Reason) => void;

export function createRefusalLog<Reason extends string>(
  label: string,
  {
    windowMs = REFUSAL_LOG_WINDOW_MS,
    write = (line: string) => console.error(line),
    verb = 'refused',
  }: { windowMs?: number; write?: (line: string) => void; verb?: string } = {},
): RefusalLog<Reason> {
  // null while no window is open: the next refusal is written at once and opens one.
  let counts: Map<Reason, number> | null = null;

  function closeWindow() {
    const summary = [...counts!].map(([reason, count]) => `${count} × ${reason}`);
    const total = [...counts!.values()].reduce((sum, count) => sum + count, 0);
    if (total === 0) {
      counts = null;
      return;
    }
    write(`${label}: ${total} more ${verb} in the last ${windowMs / 1000} s (${summary.join('; ')})`);
    counts = new Map();
    setTimeout(closeWindow, windowMs);
  }

  return (reason) => {
    if (counts === null) {
      write(`${label} ${verb}: ${reason}`);
      counts = new Map();
      setTimeout(closeWindow, windowMs);
      return;
    }
    counts.set(reason, (counts.get(reason) ?? 0) + 1);
  };
}
