import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * The files under `dir` that git tracks in the work tree holding it, as absolute paths; empty when
 * `dir` is not in a git work tree, or git is not installed or fails. git runs without a shell and
 * with a timeout, from `dir` itself (`-C`), and reads nothing but the index.
 */
export function gitTrackedFiles(dir: string): Set<string> {
  let out: string;
  try {
    out = execFileSync('git', ['-C', dir, 'ls-files', '-z', '--full-name', '--', '.'], { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 256 * 1024 * 1024 });
  } catch {
    return new Set();
  }
  let top: string;
  try {
    top = execFileSync('git', ['-C', dir, 'rev-parse', '--show-toplevel'], { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return new Set();
  }
  return new Set(out.split('\0').filter((name) => name !== '').map((name) => path.join(top, name)));
}
