import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('@google/genai is loaded lazily', () => {
  it('every static import of it is type-only, and only the google client factory imports it at run time', () => {
    const sources = readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((path) => path.endsWith('.ts') && !path.endsWith('.test.ts') && !path.includes('__fixtures__'))
      .map((path) => ({ path, text: readFileSync(join(root, path), 'utf8') }));
    const staticImports = sources.flatMap(({ path, text }) =>
      [...text.matchAll(/^\s*(import|export)\s+(?!type\b)[^;]*?from\s+'@google\/genai[^']*'/gm)].map(() => path),
    );
    const dynamicImports = sources.filter(({ text }) => text.includes("await import('@google/genai')")).map(({ path }) => path);

    expect(sources.length).toBeGreaterThan(10);
    expect(staticImports).toEqual([]);
    expect(dynamicImports).toEqual([join('google', 'create-google-client.ts')]);
  });
});
