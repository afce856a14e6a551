/** Whether a process has ended: a worker of the run that stopped or crashed (one that runs as another user has not). */
export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
