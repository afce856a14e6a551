/**
 * Started through npx, a long-running command's parent is npm's `sh -c`: a SIGTERM to npx ends that
 * shell and never reaches the command, which is left running under init. A command that finds its
 * parent gone stops as it would on SIGTERM.
 */
const checkEveryMs = 500;

/** Calls onGone once the process that started this one has ended; returns the function that stops watching. */
export function whenParentGone(onGone: () => void): () => void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onGone();
  }, checkEveryMs);
  timer.unref();
  return () => clearInterval(timer);
}
