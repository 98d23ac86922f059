import { spawn } from 'node:child_process';

/** The pid of a process that has certainly exited. */
export async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}
