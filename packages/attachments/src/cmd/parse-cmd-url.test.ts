import { AttachmentError } from '@jp/core';
import { describe, expect, it } from 'vitest';
import { parseCmdUrl } from './parse-cmd-url.ts';

function messageOf(input: string): string {
  try {
    parseCmdUrl(input);
  } catch (error) {
    expect(error).toBeInstanceOf(AttachmentError);
    expect((error as AttachmentError).attachment).toBe(input.trim());
    expect((error as Error).message.startsWith(input.trim())).toBe(true);
    return (error as Error).message;
  }
  throw new Error(`${input} was accepted`);
}

describe('parseCmdUrl, cmd:// form', () => {
  it('reads the program and repeated arg parameters in order', () => {
    expect(parseCmdUrl('cmd://git?arg=diff&arg=--cached')).toEqual({ program: 'git', args: ['diff', '--cached'], allowFailure: false, form: 'url' });
    expect(parseCmdUrl('cmd://date')).toEqual({ program: 'date', args: [], allowFailure: false, form: 'url' });
  });

  it('reads allow_failure and description', () => {
    expect(parseCmdUrl('cmd://make?arg=test&allow_failure=true&description=test%20run%20output')).toEqual({
      program: 'make',
      args: ['test'],
      allowFailure: true,
      description: 'test run output',
      form: 'url',
    });
    expect(parseCmdUrl('cmd://make?allow_failure=false').allowFailure).toBe(false);
  });

  it('percent-decodes, keeps + and = as they are, and reads an empty arg', () => {
    expect(parseCmdUrl('cmd://git?arg=log&arg=--format=%25H%20%25s&arg=a+b&arg=&arg=%26%3D%23').args).toEqual(['log', '--format=%H %s', 'a+b', '', '&=#']);
    expect(parseCmdUrl('cmd://git?arg=status&').args).toEqual(['status']);
  });

  it('takes a program with a slash as a path: absolute or from the workspace root', () => {
    expect(parseCmdUrl('cmd:///usr/bin/env?arg=x')).toMatchObject({ program: '/usr/bin/env', args: ['x'] });
    expect(parseCmdUrl('cmd://./scripts/x.sh')).toMatchObject({ program: './scripts/x.sh', args: [] });
    expect(parseCmdUrl('cmd://scripts/my%20tool')).toMatchObject({ program: 'scripts/my tool' });
  });

  it('accepts the scheme in any case and trims surrounding blanks', () => {
    expect(parseCmdUrl('  CMD://git?arg=status \n')).toMatchObject({ program: 'git', args: ['status'] });
  });

  it('refuses malformed URLs with a message naming them', () => {
    expect(messageOf('cmd://?arg=x')).toMatch(/no program named; write cmd:\/\/<program>\?arg=…/);
    expect(messageOf('cmd://git?arg=a&flag=1')).toMatch(/unknown parameter "flag"; a cmd:\/\/ URL takes arg, allow_failure, description/);
    expect(messageOf('cmd://git?allow_failure=yes')).toMatch(/allow_failure must be true or false, not "yes"/);
    expect(messageOf('cmd://git?allow_failure=true&allow_failure=true')).toMatch(/"allow_failure" is given twice/);
    expect(messageOf('cmd://git?description=a&description=b')).toMatch(/"description" is given twice/);
    expect(messageOf('cmd://git?arg=%zz')).toMatch(/malformed percent-encoding in "%zz"; write a literal % as %25/);
    expect(messageOf('cmd://git?arg=log#x')).toMatch(/no fragment; write # inside an argument as %23/);
    expect(messageOf('cmd://git?arg=a%00b')).toMatch(/NUL byte/);
  });
});

describe('parseCmdUrl, cmd: form', () => {
  it('splits the command line after cmd:', () => {
    expect(parseCmdUrl('cmd:git diff --cached')).toEqual({ program: 'git', args: ['diff', '--cached'], allowFailure: false, form: 'line' });
    expect(parseCmdUrl(`cmd:grep -n "to do" src/a.ts`)).toMatchObject({ program: 'grep', args: ['-n', 'to do', 'src/a.ts'] });
    expect(parseCmdUrl('cmd:/usr/bin/env x')).toMatchObject({ program: '/usr/bin/env', args: ['x'] });
    expect(parseCmdUrl('Cmd: git status ')).toMatchObject({ program: 'git', args: ['status'] });
  });

  it('has no parameters: allow_failure in the command line is just text, and ? must be quoted', () => {
    expect(parseCmdUrl(`cmd:make allow_failure=true`)).toMatchObject({ args: ['allow_failure=true'], allowFailure: false });
    expect(messageOf('cmd:git status?allow_failure=true')).toMatch(/glob/);
  });

  it('refuses an empty command, an empty program and shell syntax', () => {
    expect(messageOf('cmd:')).toMatch(/no command given; write cmd:<program> <args>/);
    expect(messageOf('cmd:   ')).toMatch(/no command given/);
    expect(messageOf(`cmd:'' x`)).toMatch(/the program name is empty/);
    expect(messageOf('cmd:git log | head')).toBe('cmd:git log | head: cmd: runs one program without a shell; `|` is not supported — wrap it in a script');
  });

  it('refuses an input of another scheme', () => {
    expect(messageOf('file:a.txt')).toMatch(/not a cmd attachment/);
  });
});
