import { stripVTControlCharacters } from 'node:util';

const decoder = new TextDecoder('utf-8');

/**
 * The end of a command's stderr for a one-line error: its last `maxLines` non-blank lines and at
 * most `maxChars` characters, colour codes and control characters removed, lines joined with
 * ` | `. Empty when stderr said nothing.
 */
export function stderrTail(bytes: Uint8Array, maxLines = 5, maxChars = 500): string {
  const lines = stripVTControlCharacters(decoder.decode(bytes))
    .split(/\r?\n|\r/)
    .map((line) => line.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim())
    .filter((line) => line !== '');
  const tail = lines.slice(-maxLines).join(' | ');
  return tail.length <= maxChars ? tail : `…${tail.slice(tail.length - maxChars + 1)}`;
}
