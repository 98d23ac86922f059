import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Every TypeScript source file of the workspace's packages and apps. */
function sources(): string[] {
  const files: string[] = [];
  for (const group of ['apps', 'packages']) {
    for (const entry of readdirSync(path.join(repo, group), { withFileTypes: true, recursive: true })) {
      const full = path.join(entry.parentPath, entry.name);
      // Not installed packages, not build output (`dist/`, and `dist-*/` copies of it).
      const skipped = path.relative(repo, full).split(path.sep).some((segment) => segment === 'node_modules' || segment === 'dist' || segment.startsWith('dist-'));
      if (entry.isFile() && entry.name.endsWith('.ts') && !skipped) files.push(full);
    }
  }
  return files;
}

describe('zod imports', () => {
  // `import { z }` takes zod's `z` object, which refers to all of zod, so the bundle keeps all of
  // it (JSON Schema conversion and the rest) for every command that validates anything. As a
  // namespace import, the bundler keeps what is used (docs/performance.md, pass 8).
  it('imports zod as a namespace everywhere, so that the bundle keeps only the parts used', () => {
    const files = sources();
    const named = files.filter((file) => /import\s*\{[^}]*\bz\b[^}]*\}\s*from\s*['"]zod(\/[^'"]*)?['"]/.test(readFileSync(file, 'utf8')));
    expect(named.map((file) => path.relative(repo, file))).toEqual([]);
    expect(files.length).toBeGreaterThan(100);
  });
});
