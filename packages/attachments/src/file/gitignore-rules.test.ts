import ignore from 'ignore';
import { describe, expect, it } from 'vitest';
import { enterDirectory, hasRuleScan, isIgnored, type GitignoreLevel, type GitignoreScope } from './gitignore-rules.ts';

/** A tree as a walk sees it: directories end in `/`, and some hold a `.gitignore`. */
const TREE = ['top.txt', 'a/', 'a/top.txt', 'a/q.log', 'a/keep.log', 'a/d/', 'a/d/in.txt', 'a/x/', 'a/x/f.txt', 'a/x/keep.log', 'a/x/z.tmp', 'a/x/y/', 'a/x/y/keep.log', 'b/', 'b/e.txt', 'b/c/', 'b/c/in.txt', 'x/', 'x/in.txt'];
const GITIGNORES: Record<string, string> = {
  '': 'x/\n*.log\n/top.txt\nb/c/\n',
  a: '!x/\n!keep.log\nd\n',
  'a/x': '# comment only\n*.tmp\n',
};

function level(directory: string): GitignoreLevel | undefined {
  const text = GITIGNORES[directory];
  return text === undefined ? undefined : { directory, rules: ignore().add(text) };
}

/** What the walk did before scopes: every level in force asked through `Ignore#test`, parents included. */
function throughTest(levels: GitignoreLevel[], relative: string, isDirectory: boolean): boolean {
  for (const { directory, rules } of [...levels].reverse()) {
    const inside = directory === '' ? relative : relative.slice(directory.length + 1);
    const result = rules.test(isDirectory ? `${inside}/` : inside);
    if (result.unignored) return false;
    if (result.ignored) return true;
  }
  return false;
}

/** Walks TREE as `walkFiles` does, checking every verdict against `throughTest`; returns what is kept. */
function walk(): string[] {
  const kept: string[] = [];
  const visit = (relative: string, outer: GitignoreScope, outerLevels: GitignoreLevel[]) => {
    const own = level(relative);
    const scope = enterDirectory(outer, relative, own);
    const levels = own === undefined ? outerLevels : [...outerLevels, own];
    const prefix = relative === '' ? '' : `${relative}/`;
    for (const entry of TREE.filter((path) => path.startsWith(prefix) && /^[^/]+\/?$/.test(path.slice(prefix.length)))) {
      const isDirectory = entry.endsWith('/');
      const entryRelative = isDirectory ? entry.slice(0, -1) : entry;
      const ignored = isIgnored(scope, entryRelative, isDirectory);
      expect(ignored, entry).toBe(throughTest(levels, entryRelative, isDirectory));
      if (ignored) continue;
      if (isDirectory) visit(entryRelative, scope, levels);
      else kept.push(entry);
    }
  };
  visit('', { levels: [], ignoredAbove: false }, []);
  return kept.sort();
}

describe('gitignore scopes', () => {
  it('use the rule scan of the pinned ignore, not the slower fallback', () => {
    expect(hasRuleScan(ignore().add('*.log'))).toBe(true);
  });

  it('judge every entry of a walk as Ignore#test does with its parents, level by level', () => {
    expect(walk()).toEqual([
      'a/keep.log',
      'a/top.txt',
      'a/x/keep.log',
      'b/e.txt',
    ]);
  });

  it('keep a directory an outer level ignores ignored below, for what an inner level does not re-include', () => {
    // The root's `x/` ignores a/x/; a/.gitignore's `!x/` re-includes the directory, so it is entered,
    // but its files stay ignored through the root's rule unless a rule re-includes them by name.
    // (git itself would list a/x/f.txt: it matches each file against the patterns only.)
    const root = level('')!;
    const a = level('a')!;
    const scope = enterDirectory(enterDirectory({ levels: [root], ignoredAbove: false }, 'a', a), 'a/x', undefined);
    expect(scope).toEqual({ levels: [a], ignoredAbove: true });
    expect(isIgnored(scope, 'a/x/f.txt', false)).toBe(true);
    expect(isIgnored(scope, 'a/x/keep.log', false)).toBe(false);
  });
});
