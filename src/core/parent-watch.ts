/**
 * Started through npx, a long-running command's parent is npm's `sh -c`: a SIGTERM to npx ends that
 * shell and never reaches the command, which is left running under init. A command that finds its
 * parent gone stops as it would on SIGTERM.
 */
const checkEveryMs = 500;

/**
 * The process that started this one, read as the module loads: before the command says it is ready.
 * Read later, it could already be init's pid (a shell killed right after the ready line, before the
 * watch began), and the end of the parent would never be seen.
 */
const startedBy = process.ppid;

/** Calls onGone once the process that started this one has ended; returns the function that stops watching. */
export function whenParentGone(onGone: () => void): () => void {
  const timer = setInterval(() => {
    if (process.ppid === startedBy) return;
    clearInterval(timer);
    onGone();
  }, checkEveryMs);
  timer.unref();
  return () => clearInterval(timer);
}
