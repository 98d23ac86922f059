import { spawn } from 'node:child_process';
import { parse } from 'shell-quote';

/**
 * Shows `text` through the user's pager when it is taller than the terminal, as `git log` does:
 * `$PAGER` (a program and its arguments, run without a shell), else `less -R`; `LESS` defaults to
 * `FRX` as git sets it (quit on one screen, keep colours, leave the screen as it was). Anything that
 * keeps the pager from starting prints the text directly instead.
 */
export async function page(text: string, terminal: { rows: number | undefined; write(text: string): void }, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const rows = terminal.rows ?? 0;
  const lines = text.split('\n').length - 1;
  const words = (env.PAGER ?? '').trim() === '' ? ['less', '-R'] : parse(env.PAGER!, (name) => env[name] ?? '');
  const argv = words.every((word): word is string => typeof word === 'string') ? words : [];
  if (rows === 0 || lines < rows || argv.length === 0 || argv[0] === 'cat') {
    terminal.write(text);
    return;
  }
  // Ctrl-C is the pager's while it runs, as git lets less have it.
  const ignore = (): void => undefined;
  process.on('SIGINT', ignore);
  const shown = await new Promise<boolean>((resolve) => {
    const child = spawn(argv[0]!, argv.slice(1), { stdio: ['pipe', 'inherit', 'inherit'], env: { ...env, LESS: env.LESS ?? 'FRX' } });
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.stdin.on('error', () => undefined);
      child.stdin.end(text);
    });
    child.once('close', () => resolve(true));
  }).finally(() => process.off('SIGINT', ignore));
  if (!shown) terminal.write(text);
}
