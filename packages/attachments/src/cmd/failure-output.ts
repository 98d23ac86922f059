import { stripVTControlCharacters } from 'node:util';
import { stderrTail } from './stderr-tail.ts';

/** The line that separates a failed run's stdout from its stderr in the resource's text. */
export const STDERR_SEPARATOR = '--- stderr ---';

const decoder = new TextDecoder('utf-8');

/**
 * The stderr of a failed run as text for the model: valid UTF-8 (a sequence cut at the front of
 * the kept tail is dropped, invalid bytes become U+FFFD), colour codes and control characters
 * other than tab and newline removed, line endings as `\n`. When only the tail was kept, a first
 * line says how many bytes came before it.
 */
export function stderrText(kept: Uint8Array, totalBytes: number): string {
  let start = 0;
  const dropped = totalBytes - kept.length;
  // A tail cut inside a multi-byte character starts with continuation bytes (10xxxxxx).
  if (dropped > 0) while (start < Math.min(3, kept.length) && (kept[start]! & 0xc0) === 0x80) start += 1;
  const text = stripVTControlCharacters(decoder.decode(kept.subarray(start)))
    .replace(/\r\n?/g, '\n')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
  return dropped > 0 ? `[the first ${dropped + start} bytes of stderr were not kept]\n${text}` : text;
}

/**
 * A failed run's stdout text followed by its stderr: stdout, a newline if it did not end with
 * one, the `--- stderr ---` line, then the stderr (its last `STDERR_KEPT` bytes). Unchanged when
 * stderr said nothing.
 */
export function appendStderr(stdout: string, stderr: Uint8Array, stderrBytes: number): string {
  if (stderrBytes === 0) return stdout;
  const gap = stdout === '' || stdout.endsWith('\n') ? '' : '\n';
  return `${stdout}${gap}${STDERR_SEPARATOR}\n${stderrText(stderr, stderrBytes)}`;
}

/** For a failed run whose stdout is binary: the stderr tail, one line, for the description. */
export function stderrNote(stderr: Uint8Array): string | undefined {
  const tail = stderrTail(stderr);
  return tail === '' ? undefined : `stderr: ${tail}`;
}
