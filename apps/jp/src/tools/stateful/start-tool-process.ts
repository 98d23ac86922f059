import type { ChildProcessWithoutNullStreams } from 'node:child_process';

/**
 * Starts a stateful tool's program in its own process group (so abort can signal the whole group)
 * with all three pipes open, and resolves once it is running; rejects when it cannot be started
 * (ENOENT, EACCES). Both modes start their programs this way.
 */
export async function startToolProcess(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<ChildProcessWithoutNullStreams> {
  // Loaded when a stateful tool starts, not with the query command (`child_process` brings `net` along).
  const { spawn } = process.getBuiltinModule('node:child_process');
  const child = spawn(command, args, { cwd, env, shell: false, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  return child;
}
