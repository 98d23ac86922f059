import fs from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** The rules of one `.gitignore` and the workspace-relative directory they belong to (`''` for the root). */
export interface GitignoreLevel {
  directory: string;
  rules: Ignore;
  /**
   * For rules whose patterns start above the workspace root (git's `info/exclude` and global
   * excludes file start at the repository's work tree): where the workspace root lies there,
   * `''` or `sub/dir/`. `directory` is then `''`.
   */
  prefix?: string;
}

/**
 * The `.gitignore` levels in force in one directory of a walk. `Ignore#test` treats a path as
 * ignored when a level's rules ignore one of its parent directories; a walk meets the parents
 * first, so that part is settled here once per directory instead of again for every entry.
 */
export interface GitignoreScope {
  /** The levels whose rules still speak about the entries here, outermost first. */
  readonly levels: readonly GitignoreLevel[];
  /**
   * Whether a level above `levels` ignores this directory (it was entered because a deeper level
   * re-included it): what `levels` do not decide is then ignored.
   */
  readonly ignoredAbove: boolean;
}

/** `ignore`'s own result type, for one path. */
type Verdict = ReturnType<Ignore['test']>;

/** The rule scan inside an `Ignore`, which `Ignore#test` runs on a path and on each of its parents. */
interface WithRuleScan {
  _rules?: { test?: (path: string, mode: 'regex') => Verdict };
}

/**
 * Whether `rules` has the rule scan `verdict` calls. The `ignore` pinned in package.json does; one
 * that moved it would make `verdict` fall back to `Ignore#test` rather than break, and the test
 * that asks this would notice.
 */
export function hasRuleScan(rules: Ignore): boolean {
  return typeof (rules as WithRuleScan)._rules?.test === 'function';
}

/**
 * What one level's rules say about a path itself: the last rule that matches it. Called only where
 * none of the path's parents is ignored by that level (see `GitignoreScope`), where `Ignore#test`
 * gives the very same answer, but only after a walk up the parents and a cache entry per path,
 * which took about a third of a cold walk of 10 000 files. So the scan `test` ends with is
 * called directly when there is one (`hasRuleScan`).
 */
function verdict(rules: Ignore, relative: string): Verdict {
  const scan = (rules as WithRuleScan)._rules;
  return scan?.test === undefined ? rules.test(relative) : scan.test(relative, 'regex');
}

/**
 * Reads `<realDirectory>/.gitignore` (synchronously: it is small, and a walk reads one per
 * directory that has one); `undefined` when there is none (or it cannot be read).
 */
export function readGitignore(realDirectory: string, directory: string): GitignoreLevel | undefined {
  let text: string;
  try {
    text = fs.readFileSync(path.join(realDirectory, '.gitignore'), 'utf8');
  } catch {
    // None, or one that is a directory or unreadable: no rules here, as for git.
    return undefined;
  }
  return { directory, rules: ignore().add(text) };
}

/** `relative` as seen from a level's directory, with a trailing slash for a directory. */
function inside(level: GitignoreLevel, relative: string, isDirectory: boolean): string {
  let own: string;
  if (level.prefix !== undefined) own = relative === '' ? level.prefix.slice(0, -1) : level.prefix + relative;
  else own = level.directory === '' ? relative : relative.slice(level.directory.length + 1);
  return isDirectory ? `${own}/` : own;
}

/**
 * Whether a workspace-relative path in a scope's directory is ignored. As in git, the deepest
 * `.gitignore` with a rule about the path decides, and the last rule in it wins, so a nested
 * `!keep.log` re-includes what an outer `*.log` left out.
 */
export function isIgnored(scope: GitignoreScope, relative: string, isDirectory: boolean): boolean {
  const { levels } = scope;
  for (let index = levels.length - 1; index >= 0; index--) {
    const level = levels[index]!;
    const result = verdict(level.rules, inside(level, relative, isDirectory));
    if (result.unignored) return false;
    if (result.ignored) return true;
  }
  return scope.ignoredAbove;
}

/**
 * The scope inside `relative`, a directory of `scope` that is not ignored (a deeper level may
 * have re-included it), with `own` its `.gitignore`. A level whose rules ignore the directory
 * ignores everything under it, as `Ignore#test` has it for a path with an ignored parent; it
 * outranks the levels above it, so those have nothing more to say there either.
 */
export function enterDirectory(scope: GitignoreScope, relative: string, own: GitignoreLevel | undefined): GitignoreScope {
  let { levels, ignoredAbove } = scope;
  // The workspace root itself is never ignored: it is where the walk starts.
  for (let index = relative === '' ? -1 : levels.length - 1; index >= 0; index--) {
    const level = levels[index]!;
    if (verdict(level.rules, inside(level, relative, true)).ignored) {
      levels = levels.slice(index + 1);
      ignoredAbove = true;
      break;
    }
  }
  if (own !== undefined) levels = [...levels, own];
  return levels === scope.levels ? scope : { levels, ignoredAbove };
}

/**
 * The scope a walk starts in: git's excludes (`excludes`, see `readGitExcludes`), the lowest
 * level, then every `.gitignore` from the workspace root down to its parent, except those that
 * would ignore the directory itself (through `Ignore#test`, so with its parents) — naming a
 * directory explicitly attaches it even when an outer rule leaves it out.
 */
export function outerGitignores(workspaceRoot: string, start: string, excludes?: GitignoreLevel): GitignoreScope {
  const levels: GitignoreLevel[] = [];
  if (excludes !== undefined) {
    const own = inside(excludes, start, true);
    if (own === '/' || !excludes.rules.test(own).ignored) levels.push(excludes);
  }
  if (start === '') return { levels, ignoredAbove: false };
  const segments = start.split('/');
  for (let depth = 0; depth < segments.length; depth++) {
    const directory = segments.slice(0, depth).join('/');
    const level = readGitignore(path.join(workspaceRoot, ...segments.slice(0, depth)), directory);
    if (level !== undefined && !level.rules.test(inside(level, start, true)).ignored) levels.push(level);
  }
  return { levels, ignoredAbove: false };
}
