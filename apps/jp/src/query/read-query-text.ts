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

export async function readStdinBytes(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
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
