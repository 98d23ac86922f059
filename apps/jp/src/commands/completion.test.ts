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

  it('bash offers fixed values from the script: -F choices, shells, and no free-text value', () => {
    expect(complete(['jp', '-F', ''])).toEqual(['text', 'json']);
    expect(complete(['jp', 'completion', ''])).toEqual(['bash', 'zsh', 'fish']);
    expect(complete(['jp', 'query', '--title', ''])).toEqual([]);
    // The value of an option is not a command: `-w c` does not enter `jp conversation`.
    expect(complete(['jp', '-w', 'c', ''])).toContain('conversation');
  });

  it('zsh is a native function that declares no variable zsh keeps for itself', () => {
    const zsh = completionScript('zsh', buildProgram());
    expect(zsh).toMatch(/^#compdef jp\n/);
    expect(zsh).not.toContain('bashcompinit');
    expect(zsh).toContain("'use:make a conversation the active one'");
    for (const declaration of zsh.matchAll(/^\s*local(?: -a)? (.*)$/gm)) {
      const names = declaration[1]!.split(' ').map((word) => word.replace(/=.*/, ''));
      expect(names.filter((name) => !name.startsWith('jp_'))).toEqual([]);
    }
  });

  it('fish conditions on the exact command and asks jp for dynamic values', () => {
    const fish = completionScript('fish', buildProgram());
    expect(fish).toContain(`complete -c jp -n '__jp_at "conversation use"' -x -k -a '(__jp_values conversations)'`);
    expect(fish).toContain(`complete -c jp -n '__jp_at "attachment rm"' -x -k -a '(__jp_values attachments)'`);
    expect(fish).toContain(`complete -c jp -s F -l format -d 'output format' -x -k -a 'text json'`);
  });

  it('refuses other shells with a usage error', () => {
    expect(() => completionScript('tcsh', buildProgram())).toThrow(expect.objectContaining({ exitCode: 2 }));
  });
});
