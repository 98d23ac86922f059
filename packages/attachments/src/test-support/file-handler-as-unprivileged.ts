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
 * really stops the read; the child drops to it after loading its modules, which a checkout
 * nobody may read would otherwise deny) and as the current user otherwise. `reachable` dirs are opened to
 * `nobody` (temp dirs are created 0700).
 */
export async function fileHandlerAsUnprivileged(
  options: { root: string; cwd?: string; reachable: string[] },
  calls: { op: 'validate' | 'resolve'; input: string }[],
): Promise<ChildOutcome[]> {
  const asRoot = process.getuid?.() === 0;
  if (asRoot) for (const dir of options.reachable) await chmod(dir, 0o755);
  const argument = JSON.stringify({ root: options.root, cwd: options.cwd ?? options.root, calls, ...(asRoot ? { drop: NOBODY } : {}) });
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', CHILD, argument],
      // The child drops to `nobody` itself once its modules are loaded (file-handler-child.ts).
      { cwd: process.cwd() },
      (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out)),
    );
  });
  return JSON.parse(stdout) as ChildOutcome[];
}
