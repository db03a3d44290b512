/**
 * Preloaded (`node --import`) into a server or build that a command started (testkit/processes.ts,
 * tieChildrenToThisProcess): its stdin is a pipe from that command, which the kernel closes when the
 * command dies, by any signal, SIGKILL included. The process then stops as on SIGTERM, its own shutdown
 * code included, instead of running on orphaned with the command's port and store.
 *
 * Only where the command said so: a worker this process forks inherits the preload, not the pipe.
 */
/** Set to '1' by the command that started this process (testkit/processes.ts): stdin is the pipe from it. */
export const PARENT_PIPE = 'STDIN_IS_PARENT_PIPE';

if (process.env[PARENT_PIPE] === '1') {
  delete process.env[PARENT_PIPE];
  const stop = () => process.kill(process.pid, 'SIGTERM');
  process.stdin.once('end', stop);
  // Nothing is ever sent: a read error means the pipe is gone too.
  process.stdin.once('error', stop);
  process.stdin.resume();
  // Not what keeps the process alive: a build still exits when its work is done.
  process.stdin.unref();
}
