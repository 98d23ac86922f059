import { fstatSync } from 'node:fs';

/** Whether stdin carries data from a pipe or a file (not a terminal, not absent). */
export function stdinIsPiped(): boolean {
  if (process.stdin.isTTY) return false;
  try {
    const stat = fstatSync(0);
    return stat.isFIFO() || stat.isFile() || stat.isSocket();
  } catch {
    return false;
  }
}

/** Piped stdin; with `max`, reading stops once more than `max` bytes came (at most `max + 1` are returned). */
export async function readStdinBytes(max = Number.POSITIVE_INFINITY): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of process.stdin) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    chunks.push(bytes);
    total += bytes.byteLength;
    if (total > max) break;
  }
  const all = Buffer.concat(chunks);
  return total > max ? all.subarray(0, max + 1) : all;
}

export async function readStdin(): Promise<string> {
  return (await readStdinBytes()).toString('utf8');
}

/** The query: TEXT arguments, joined with piped stdin (TEXT first, a blank line between). */
export async function readQueryText(args: readonly string[]): Promise<string> {
  const text = args.join(' ').trim();
  if (!stdinIsPiped()) return text;
  const piped = (await readStdin()).replace(/\s+$/, '');
  if (piped === '') return text;
  return text === '' ? piped : `${text}\n\n${piped}`;
}
