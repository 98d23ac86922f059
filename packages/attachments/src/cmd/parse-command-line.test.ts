import { AttachmentError } from '@jp/core';
import { describe, expect, it } from 'vitest';
import { parseCommandLine } from './parse-command-line.ts';

function refusal(line: string): string {
  try {
    parseCommandLine(line, `cmd:${line}`);
  } catch (error) {
    expect(error).toBeInstanceOf(AttachmentError);
    expect((error as AttachmentError).attachment).toBe(`cmd:${line}`);
    return (error as Error).message;
  }
  throw new Error(`${line} was accepted`);
}

describe('parseCommandLine', () => {
  it('splits words on blanks', () => {
    expect(parseCommandLine('git diff --cached', 'x')).toEqual(['git', 'diff', '--cached']);
    expect(parseCommandLine('  git   log\t-1 ', 'x')).toEqual(['git', 'log', '-1']);
  });

  it('honours quotes, escapes and $\'…\' like a shell', () => {
    expect(parseCommandLine(`echo "a b" 'c  d' e\\ f "say \\"hi\\"" it\\'s`, 'x')).toEqual(['echo', 'a b', 'c  d', 'e f', 'say "hi"', "it's"]);
    expect(parseCommandLine(`printf $'a\\tb\\n'`, 'x')).toEqual(['printf', 'a\tb\n']);
    expect(parseCommandLine(`git log --format=%H%x09%s`, 'x')).toEqual(['git', 'log', '--format=%H%x09%s']);
  });

  it('keeps empty quoted arguments', () => {
    expect(parseCommandLine(`prog '' "" x`, 'x')).toEqual(['prog', '', '', 'x']);
  });

  it('does not expand variables or ~', () => {
    expect(parseCommandLine('echo $HOME "$HOME" \'$HOME\' $1 $$ ${PATH:-x} ~/x a$', 'x')).toEqual([
      'echo',
      '$HOME',
      '$HOME',
      '$HOME',
      '$1',
      '$$',
      '${PATH:-x}',
      '~/x',
      'a$',
    ]);
  });

  it.each([
    ['git log | head', '`|`'],
    ['git log > out.txt', '`>`'],
    ['make && make test', '`&&`'],
    ['a; b', '`;`'],
    ['sleep 1 &', '`&`'],
    ['cat < in', '`<`'],
    ['x 2>&1', '`>&`'],
    ['echo $(date)', '`(`'],
  ])('refuses the operator in %s', (line, op) => {
    expect(refusal(line)).toBe(`cmd:${line}: cmd: runs one program without a shell; ${op} is not supported — wrap it in a script`);
  });

  it('refuses globs and comments, saying to quote them', () => {
    expect(refusal('ls src/*.ts')).toMatch(/the glob `src\/\*\.ts` is not supported — quote it/);
    expect(refusal('git diff?x=1')).toMatch(/the glob `diff\?x=1`/);
    expect(refusal('git log # recent')).toMatch(/`#` \(a comment\) is not supported — quote it/);
    expect(parseCommandLine(`ls 'src/*.ts' "#1"`, 'x')).toEqual(['ls', 'src/*.ts', '#1']);
  });

  it('refuses what a shell would not accept instead of guessing', () => {
    expect(refusal('echo "a b')).toBe('cmd:echo "a b: an unclosed " in the command line; close the quote');
    expect(refusal("echo 'a b")).toMatch(/an unclosed ' in the command line/);
    expect(refusal("echo $'a b")).toMatch(/an unclosed \$' in the command line/);
    expect(refusal('echo a\\')).toMatch(/a trailing backslash in the command line; remove it, or write \\\\ for a backslash$/);
    expect(refusal('echo a\nrm b')).toMatch(/a newline in the command line; quote it, or put several commands in a script$/);
    expect(refusal('echo ${}')).toMatch(/Bad substitution/);
    // Inside quotes these are just characters.
    expect(parseCommandLine(`echo "it's" 'say "x"' "a\nb"`, 'x')).toEqual(['echo', "it's", 'say "x"', 'a\nb']);
  });

  it('returns no words for a blank line', () => {
    expect(parseCommandLine('   ', 'x')).toEqual([]);
  });
});

describe('parseCommandLine and escaped glob characters', () => {
  it('passes an escaped * or ? as a literal word', () => {
    expect(parseCommandLine('ls \\*.ts what\\?', 'x')).toEqual(['ls', '*.ts', 'what?']);
  });

  it('still refuses a real glob next to an escaped one', () => {
    expect(() => parseCommandLine('ls \\*.ts *.js', 'x')).toThrow(/glob/);
  });
});
