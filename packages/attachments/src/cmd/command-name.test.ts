import { describe, expect, it } from 'vitest';
import { cmdUrlOf } from './cmd-url-of.ts';
import { commandName } from './command-name.ts';
import { parseCmdUrl } from './parse-cmd-url.ts';

const awkward: string[][] = [
  ['git', 'diff', '--cached'],
  ['git', 'log', '--format=%H %s', 'HEAD~1', 'HEAD^'],
  ['echo', '', 'a b', "it's", 'say "hi"', '$HOME', '~/x', '*.ts', 'a|b', '#1', 'x!y', 'tab\there', 'ünïcode'],
  ['/usr/bin/env', 'A=1', 'node', '-e', 'process.stdout.write("x")'],
  ['./scripts/my tool.sh', '--flag=a&b', '100%'],
];

describe('commandName', () => {
  it('writes plain words as they are', () => {
    expect(commandName('git', ['diff', '--cached'])).toBe('git diff --cached');
    expect(commandName('git', ['log', '--format=%H', 'HEAD~1', 'src/a.ts', 'user@host:x'])).toBe('git log --format=%H HEAD~1 src/a.ts user@host:x');
  });

  it('quotes the rest', () => {
    expect(commandName('echo', ['a b', '', '$HOME', '~/x', '*'])).toBe(`echo 'a b' '' \\$HOME \\~/x \\*`);
  });

  it.each(awkward.map((words) => [words.join(' '), words] as const))('round-trips through cmd: — %s', (_, words) => {
    const [program = '', ...args] = words;
    expect(parseCmdUrl(`cmd:${commandName(program, args)}`)).toMatchObject({ program, args });
  });
});

describe('cmdUrlOf', () => {
  it('writes the cmd:// form', () => {
    expect(cmdUrlOf({ program: 'git', args: ['diff', '--cached'], allowFailure: true })).toBe('cmd://git?arg=diff&arg=--cached&allow_failure=true');
    expect(cmdUrlOf({ program: '/usr/bin/env', args: [], allowFailure: false })).toBe('cmd:///usr/bin/env');
  });

  it.each(awkward.map((words) => [words.join(' '), words] as const))('round-trips through cmd:// — %s', (_, words) => {
    const [program = '', ...args] = words;
    const invocation = { program, args, allowFailure: true, description: 'a & b = c?' };
    expect(parseCmdUrl(cmdUrlOf(invocation))).toEqual({ ...invocation, form: 'url' });
  });
});
