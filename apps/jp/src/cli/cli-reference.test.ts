import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderCliReference } from './cli-reference.ts';
import { buildProgram } from './main.ts';

const reference = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../docs/cli.md');

describe('docs/cli.md', () => {
  const updating = process.env.UPDATE_CLI_DOCS === '1';

  // The comparison is only meaningful against the file as committed: when regenerating, the file
  // is written instead, and this run says so rather than comparing the file with itself.
  it.skipIf(updating)('matches the CLI (regenerate with `pnpm run docs:cli`)', () => {
    expect(readFileSync(reference, 'utf8')).toBe(renderCliReference(buildProgram()));
  });

  it.runIf(updating)('UPDATE_CLI_DOCS=1 writes docs/cli.md from the CLI, rendered the same way twice', () => {
    const rendered = renderCliReference(buildProgram());
    expect(renderCliReference(buildProgram())).toBe(rendered);
    writeFileSync(reference, rendered);
  });

  it('covers every command', () => {
    const rendered = renderCliReference(buildProgram());
    for (const command of ['jp query', 'jp attachment ls', 'jp conversation fork', 'jp mcp resources', 'jp completion', 'jp gc']) {
      expect(rendered).toContain(`## \`${command}\``);
    }
  });
});
