import { describe, expect, it } from 'vitest';
import { typedPath } from './typed-path.ts';

const files = new Set(['/w/a\x1b]0;owned\x07.txt', '/w/plain\\x1b.txt', '/w/plain.txt']);
const exists = (file: string) => files.has(file);

describe('typedPath', () => {
  it('reads a visible form back to the file it shows', () => {
    expect(typedPath('a\\x1b]0;owned\\x07.txt', '/w', exists)).toBe('a\x1b]0;owned\x07.txt');
  });

  it('prefers a file named exactly as typed, and leaves a word that names nothing alone', () => {
    expect(typedPath('plain\\x1b.txt', '/w', exists)).toBe('plain\\x1b.txt');
    expect(typedPath('plain.txt', '/w', exists)).toBe('plain.txt');
    expect(typedPath('b\\x1b.txt', '/w', exists)).toBe('b\\x1b.txt');
  });
});
