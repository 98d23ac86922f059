import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Real git for a test, sandboxed: a temp HOME and global config, no system config, fixed
 * identities, `main` as the first branch and merge on pull. Returns the root it made and `git`,
 * which runs git in a directory (no shell, a timeout) and returns its stdout; git failing (a
 * conflict included) throws. `within`: an existing sandbox (an e2e test's HOME and environment)
 * to keep the global config in, instead of a new temp directory.
 */
export function sandboxedGit(prefix: string, within?: { dir: string; env: NodeJS.ProcessEnv }): { root: string; git: (cwd: string, ...args: string[]) => string } {
  const root = within?.dir ?? mkdtempSync(path.join(tmpdir(), prefix));
  const env = {
    ...(within?.env ?? { ...process.env, HOME: root }),
    GIT_CONFIG_GLOBAL: path.join(root, 'gitconfig'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'a',
    GIT_AUTHOR_EMAIL: 'a@example.invalid',
    GIT_COMMITTER_NAME: 'a',
    GIT_COMMITTER_EMAIL: 'a@example.invalid',
  };
  writeFileSync(env.GIT_CONFIG_GLOBAL, '[init]\n\tdefaultBranch = main\n[pull]\n\trebase = false\n');
  const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env, encoding: 'utf8', timeout: 30_000, stdio: ['ignore', 'pipe', 'pipe'] });
  return { root, git };
}
