/** Whether a process of this id runs on this host (one of another user counts: it cannot be signalled, but it is there). */
export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
