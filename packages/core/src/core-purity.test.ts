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

describe('@jp/core', () => {
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
