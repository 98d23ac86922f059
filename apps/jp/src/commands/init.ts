import { lstatSync, mkdirSync, realpathSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs';
import path from 'node:path';
import { ExitCode, JpError, UsageError } from '@jp/core';
import type { GlobalOptions } from '../cli/global-options.ts';
import { Output } from '../output/output.ts';
import { addJpToGitignore, jpIgnoredInGit } from '../workspace/gitignore-jp.ts';
import { ensureJpGitFiles } from '../store/jp-git-files.ts';
import { JP_DIR } from '../workspace/workspace.ts';

/** The commented config `jp init` writes (kept whole by `jp config set`). */
export const TEMPLATE = `# jp workspace configuration. \`jp config show\` prints the effective values;
# \`-c KEY=VALUE\` overrides any of them for one command.

[assistant]
# The model used when a query does not pass -m. "echo" is offline and describes what it received.
# model = "anthropic/claude-sonnet-5-5"

[conversation]
# Attachments every new conversation gets at its first turn.
# attachments = ["README.md"]
`;

/** What a failed file-system call says, in words. */
function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const words: Record<string, string> = {
    ENOENT: 'no such file or directory',
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    EROFS: 'read-only file system',
    ENOSPC: 'no space left on device',
    ENOTDIR: 'a part of the path is not a directory',
  };
  return code === undefined ? (error as Error).message : `${words[code] ?? 'failed'} (${code})`;
}

function cannotCreate(shown: string, error: unknown): JpError {
  return new JpError(`cannot create ${shown}: ${reason(error)}`, { code: 'init_failed', cause: error });
}

/**
 * Makes `target` and its missing parents one at a time. Not `mkdirSync(…, { recursive: true })`:
 * where a parent refuses new entries with ENOENT (`/proc`), Node's recursive mkdir never returns.
 */
function makeDirectory(target: string, shown: string): void {
  const missing: string[] = [];
  for (let dir = target; ; ) {
    let stats: Stats | undefined;
    try {
      stats = statSync(dir, { throwIfNoEntry: false });
    } catch (error) {
      // ENOTDIR: a parent is not a directory; the walk up finds which and says so.
      if ((error as NodeJS.ErrnoException).code !== 'ENOTDIR') throw cannotCreate(shown, error);
    }
    if (stats?.isDirectory()) break;
    if (stats !== undefined) {
      const which = dir === target ? shown : path.relative(process.cwd(), dir) || dir;
      throw new UsageError(`${which} is not a directory`, { code: 'not_a_directory' });
    }
    missing.unshift(dir);
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  for (const dir of missing) {
    try {
      mkdirSync(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && statSync(dir).isDirectory()) continue;
      throw cannotCreate(shown, error);
    }
  }
}

/** What happened to `.gitignore`: `.jp/` added, already ignored there, or left as it was. */
export type GitignoreOutcome = 'added' | 'already_ignored' | 'not_added';

/**
 * Whether to add `.jp/` to `.gitignore`: as `--gitignore`/`--no-gitignore` say; without either,
 * the person is asked on a terminal (default no) when the workspace is new and `.gitignore` does
 * not ignore it yet; never off a terminal or with `-F json`. By default conversations stay
 * visible to git: a team may commit them (RFD 017).
 */
async function decideGitignore(root: string, flag: boolean | undefined, created: boolean, json: boolean): Promise<boolean> {
  if (flag !== undefined) return flag;
  if (!created || json || process.stdin.isTTY !== true || process.stderr.isTTY !== true) return false;
  if (jpIgnoredInGit(root)) return false;
  const { promptConfirm } = await import('../output/terminal-prompts.ts');
  try {
    return await promptConfirm('Add .jp/ to .gitignore? (say no to commit conversations with the repository)', false);
  } catch (error) {
    if (error instanceof Error && error.name === 'ExitPromptError') {
      throw new JpError('interrupted at the .gitignore question; the workspace was made, .gitignore left as it was', { exitCode: ExitCode.interrupted, code: 'interrupted' });
    }
    throw error;
  }
}

/**
 * `jp init [DIR] [--gitignore | --no-gitignore]`: makes DIR (and its parents) when missing, and
 * `.jp/` in it with a commented config. A `.jp` that is there and not a directory is an error, not
 * a workspace; one that cannot be made is one line naming the reason. Then, if asked
 * (`decideGitignore`), adds `.jp/` to DIR's `.gitignore`.
 */
export async function initCommand(globals: GlobalOptions, dir: string | undefined, options: { gitignore?: boolean } = {}): Promise<void> {
  const output = new Output(globals);
  const shown = dir ?? '.';
  makeDirectory(path.resolve(process.cwd(), shown), shown);
  const root = realpathSync(path.resolve(process.cwd(), shown));
  const jpDir = path.join(root, JP_DIR);
  const shownJp = path.join(shown, JP_DIR);
  let existing: Stats | undefined;
  try {
    existing = lstatSync(jpDir, { throwIfNoEntry: false });
  } catch (error) {
    throw cannotCreate(shownJp, error);
  }
  if (existing !== undefined && !statSync(jpDir, { throwIfNoEntry: false })?.isDirectory()) {
    throw new UsageError(`${shownJp} exists and is not a directory; move it away to make a workspace here`, { code: 'not_a_directory' });
  }
  const created = existing === undefined;
  if (created) {
    try {
      mkdirSync(jpDir);
    } catch (error) {
      throw cannotCreate(shownJp, error);
    }
    try {
      writeFileSync(path.join(jpDir, 'config.toml'), TEMPLATE);
    } catch (error) {
      rmSync(jpDir, { recursive: true, force: true });
      throw cannotCreate(path.join(shownJp, 'config.toml'), error);
    }
  }
  // Shared through git or not, the workspace says what is local and how appends merge (RFD 029).
  ensureJpGitFiles(jpDir);
  if (!output.json) {
    if (created) output.line(`Initialised jp workspace in ${root}`);
    else output.line(`${root} is already a jp workspace`);
  }
  let gitignore: GitignoreOutcome = 'not_added';
  if (await decideGitignore(root, options.gitignore, created, output.json)) {
    gitignore = addJpToGitignore(root) ? 'added' : 'already_ignored';
    if (!output.json) output.line(gitignore === 'added' ? 'Added .jp/ to .gitignore' : '.gitignore already ignores .jp/');
  }
  if (output.json) output.data({ workspace: root, created, gitignore });
}
