import { existsSync } from 'node:fs';
import path from 'node:path';
import { fromVisibleName } from '../output/terminal-text.ts';

/**
 * The path a word typed at the prompt names. Tab completion and every listing show a file name
 * holding control characters in its visible form (`a\x1b]0;x\x07.txt`), so that is what a person
 * types: the word as typed when such a path exists, else the name its visible form stands for when
 * that one exists, else the word unchanged (and the caller says it does not exist).
 */
export function typedPath(word: string, cwd: string, exists: (file: string) => boolean = existsSync): string {
  if (exists(path.resolve(cwd, word))) return word;
  const real = fromVisibleName(word);
  return real !== word && exists(path.resolve(cwd, real)) ? real : word;
}
