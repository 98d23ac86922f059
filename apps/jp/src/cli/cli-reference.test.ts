import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderCliReference } from './cli-reference.ts';
import { buildProgram } from './main.ts';

const reference = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../docs/cli.md');

describe('docs/cli.md', () => {
  it('matches the CLI (regenerate with `pnpm run docs:cli`)', () => {
    const rendered = renderCliReference(buildProgram());
    if (process.env.UPDATE_CLI_DOCS === '1') writeFileSync(reference, rendered);
    expect(readFileSync(reference, 'utf8')).toBe(rendered);
  });

  it('covers every command', () => {
    const rendered = renderCliReference(buildProgram());
    for (const command of ['jp query', 'jp attachment ls', 'jp conversation fork', 'jp mcp resources', 'jp completion', 'jp gc']) {
      expect(rendered).toContain(`## \`${command}\``);
    }
  });
});
