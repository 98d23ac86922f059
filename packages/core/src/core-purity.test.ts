import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** The core's sources, tests and fixtures aside. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === '__fixtures__' ? [] : sources(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [file] : [];
  });
}

/** The modules `entry` loads when it is imported: its static, non-type imports, followed. */
function runtimeClosure(entry: string): Map<string, string[]> {
  const modules = new Map<string, string[]>();
  const visit = (file: string): void => {
    if (modules.has(file)) return;
    const text = readFileSync(file, 'utf8');
    const specifiers: string[] = [];
    // `import type` and `export type` vanish at run time; everything else is loaded.
    for (const match of text.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?\bfrom\s+'([^']+)';/gms)) specifiers.push(match[1]!);
    modules.set(file, specifiers);
    for (const specifier of specifiers) if (specifier.startsWith('.')) visit(path.resolve(path.dirname(file), specifier));
  };
  visit(entry);
  return modules;
}

describe('@jp/core', () => {
  it('loads no zod through its entry: the schemas (schemas.ts) come through loadSchemas()', () => {
    const here = path.dirname(new URL(import.meta.url).pathname);
    const main = runtimeClosure(path.join(here, 'index.ts'));
    const withZod = [...main].filter(([, specifiers]) => specifiers.includes('zod')).map(([file]) => path.basename(file));
    expect(withZod).toEqual([]);
    expect(main.size).toBeGreaterThan(10);
    // The check can see zod where it is: the schemas entry reaches it.
    const schemas = runtimeClosure(path.join(here, 'schemas.ts'));
    expect([...schemas.values()].some((specifiers) => specifiers.includes('zod'))).toBe(true);
  });

  it('imports nothing but zod and its own modules, and reaches for no process or file system', () => {
    const offences: string[] = [];
    for (const file of sources(path.dirname(new URL(import.meta.url).pathname))) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/\bfrom\s+'([^']+)'|\bimport\(\s*'([^']+)'/g)) {
        const specifier = match[1] ?? match[2]!;
        if (specifier !== 'zod' && !specifier.startsWith('./') && !specifier.startsWith('../')) offences.push(`${path.basename(file)} imports ${specifier}`);
      }
      for (const global of ['process.', 'require(', 'globalThis.fetch', 'fetch(']) {
        if (text.includes(global)) offences.push(`${path.basename(file)} uses ${global}`);
      }
    }
    expect(offences).toEqual([]);
  });
});
