import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../cli/main.ts';
import { completionScript } from './completion.ts';

/** Runs the bash completion function on a command line (the last word is the one completed). */
function complete(words: string[]): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'jp-completion-'));
  writeFileSync(path.join(dir, 'jp.bash'), completionScript('bash', buildProgram()));
  const line = words.map((word) => JSON.stringify(word)).join(' ');
  const script = `source jp.bash; COMP_WORDS=(${line}); COMP_CWORD=${words.length - 1}; _jp; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const result = spawnSync('bash', ['-c', script], { cwd: dir, encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout.split('\n').filter((word) => word !== '');
}

describe('jp completion', () => {
  it('bash completes commands, subcommands and options', () => {
    expect(complete(['jp', 'conv'])).toEqual(['conversation']);
    expect(complete(['jp', 'conversation', 'f'])).toEqual(['fork']);
    expect(complete(['jp', 'c', 'fork', '--no-t'])).toEqual(['--no-turns']);
    expect(complete(['jp', 'query', '--att'])).toEqual(['--attach']);
    expect(complete(['jp', '-F', 'json', 'a', 'r'])).toEqual(['rm']);
  });

  it('zsh reuses the bash function; fish lists every subcommand', () => {
    expect(completionScript('zsh', buildProgram())).toMatch(/^#compdef jp\n[\s\S]*bashcompinit[\s\S]*complete -o filenames -F _jp jp/);
    const fish = completionScript('fish', buildProgram());
    expect(fish).toContain('-a "fork"');
    expect(fish).toContain('-l attach');
  });

  it('refuses other shells with a usage error', () => {
    expect(() => completionScript('tcsh', buildProgram())).toThrow(expect.objectContaining({ exitCode: 2 }));
  });
});
