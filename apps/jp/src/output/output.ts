import type { GlobalOptions } from '../cli/global-options.ts';

/**
 * Where a command's output goes. Data goes to stdout (JSON lines with `-F json`); notes and
 * warnings go to stderr, notes only when not `--quiet`.
 */
export class Output {
  private readonly warned = new Set<string>();

  constructor(readonly options: Pick<GlobalOptions, 'format' | 'quiet' | 'color'>) {}

  /** The same output with stdout silenced: notes and warnings still reach stderr. */
  silenced(): Output {
    const quiet = new Output(this.options);
    quiet.data = () => undefined;
    quiet.write = () => undefined;
    quiet.line = () => undefined;
    quiet.warn = (message) => this.warn(message);
    return quiet;
  }

  get json(): boolean {
    return this.options.format === 'json';
  }

  /** One JSON value as one line on stdout. */
  data(value: unknown): void {
    process.stdout.write(`${JSON.stringify(value)}\n`);
  }

  write(text: string): void {
    process.stdout.write(text);
  }

  line(text = ''): void {
    process.stdout.write(`${text}\n`);
  }

  /** A note for people (stderr), silenced by `--quiet` and in JSON mode. */
  note(message: string): void {
    if (!this.options.quiet && !this.json) process.stderr.write(`${message}\n`);
  }

  /** A warning (stderr), each distinct message once per run. */
  warn(message: string): void {
    if (this.warned.has(message)) return;
    this.warned.add(message);
    if (this.json) process.stderr.write(`${JSON.stringify({ warning: message })}\n`);
    else process.stderr.write(`jp: warning: ${message}\n`);
  }
}
