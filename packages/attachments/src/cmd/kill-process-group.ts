/** Process groups of commands still running. */
const live = new Set<number>();
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** SIGKILL to every process of the group led by `pid`; a group that is already gone is fine. */
export function killProcessGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch (error) {
    if (!(error instanceof Error && 'code' in error && error.code === 'ESRCH')) throw error;
  }
}

function killAll(): void {
  for (const group of live) killProcessGroup(group);
  live.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  killAll();
  unhook();
  // Our listener took the default action (death by the signal) away; alone, give it back.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

function hook(): void {
  process.on('exit', killAll);
  for (const signal of SIGNALS) process.on(signal, onSignal);
}

function unhook(): void {
  process.off('exit', killAll);
  for (const signal of SIGNALS) process.off(signal, onSignal);
}

/**
 * Remembers a running group until `release`. A command runs in its own session, so the
 * terminal's Ctrl-C does not reach it: while any runs, SIGINT, SIGTERM and SIGHUP to jp (and jp
 * exiting) kill every live group first, then take their usual course. The listeners exist only
 * while a command runs.
 */
export function trackProcessGroup(pid: number): { release(): void } {
  if (live.size === 0) hook();
  live.add(pid);
  return {
    release() {
      if (live.delete(pid) && live.size === 0) unhook();
    },
  };
}
