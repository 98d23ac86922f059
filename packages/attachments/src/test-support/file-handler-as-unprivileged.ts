import { execFile } from 'node:child_process';
import { chmod } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), '__fixtures__', 'file-handler-child.ts');
/** The uid and gid of `nobody`: root reads any file, so permission tests drop to it. */
const NOBODY = 65534;

export interface ChildOutcome {
  ok: boolean;
  message: string;
}

/**
 * Runs file-handler calls in a child process, as `nobody` when this process is root (so a chmod
 * really stops the read) and as the current user otherwise. `reachable` dirs are opened to
 * `nobody` (temp dirs are created 0700).
 */
export async function fileHandlerAsUnprivileged(
  options: { root: string; cwd?: string; reachable: string[] },
  calls: { op: 'validate' | 'resolve'; input: string }[],
): Promise<ChildOutcome[]> {
  const asRoot = process.getuid?.() === 0;
  if (asRoot) for (const dir of options.reachable) await chmod(dir, 0o755);
  const argument = JSON.stringify({ root: options.root, cwd: options.cwd ?? options.root, calls });
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', CHILD, argument],
      { cwd: process.cwd(), ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}) },
      (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out)),
    );
  });
  return JSON.parse(stdout) as ChildOutcome[];
}
