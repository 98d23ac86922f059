import type { HandlerContext, OversizeDecision } from '@jp/attachments';
import { ExitCode, JpError } from '@jp/core';
import { promptSelect } from './terminal-prompts.ts';

type AskOversize = NonNullable<HandlerContext['askOversize']>;

/** What draws on stderr and must be cleared before a prompt does: the resolution progress line. */
interface ClearableLine {
  done(): void;
}

const UNITS = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];

/** `524288` → `512 KiB`, `2147483648` → `2 GiB`, `1536` → `1.5 KiB`. */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = unit === 0 || Number.isInteger(value) ? String(value) : value.toFixed(1);
  return `${shown} ${UNITS[unit]}`;
}

/**
 * `askOversize` for the handlers when a person is at the terminal (stdin and stderr are TTYs),
 * else `undefined`, so `size_policy = "ask"` falls back to rejecting. The prompt is drawn on
 * stderr (stdout carries the answer), one at a time even when handlers ask concurrently, and
 * `@inquirer/prompts` is loaded only when a question is actually asked. Ctrl-C at the prompt
 * interrupts the query (exit 130).
 */
export function terminalAskOversize(progress?: ClearableLine): AskOversize | undefined {
  if (process.stdin.isTTY !== true || process.stderr.isTTY !== true) return undefined;
  let queue: Promise<unknown> = Promise.resolve();
  return (name, bytes, limit) => {
    const answer = queue.then(() => ask(name, bytes, limit, progress));
    queue = answer.catch(() => undefined);
    return answer;
  };
}

async function ask(name: string, bytes: number, limit: number, progress: ClearableLine | undefined): Promise<OversizeDecision> {
  progress?.done();
  try {
    return await promptSelect<OversizeDecision>(
      `${name} is ${formatBytes(bytes)}, over the ${formatBytes(limit)} limit (conversation.attachment.size_policy decides without asking). Attach it?`,
      [
        { name: 'attach it whole', value: 'allow' },
        { name: `attach the first ${formatBytes(limit)}`, value: 'truncate' },
        { name: 'do not attach it (the query stops)', value: 'reject' },
      ],
      'reject',
    );
  } catch (error) {
    if (error instanceof Error && error.name === 'ExitPromptError') {
      throw new JpError('interrupted at the attachment size prompt', { exitCode: ExitCode.interrupted, code: 'interrupted' });
    }
    throw error;
  }
}
