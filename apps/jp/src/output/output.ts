import type { GlobalOptions } from '../cli/global-options.ts';
import { colorEnabled } from './color-choice.ts';
import { StatusLine, type StatusStream } from './status-line.ts';
import { PLAIN, stylesFor, type Styles } from './styles.ts';
import { terminalSafeJson, visibleText } from './terminal-text.ts';

/**
 * Where output goes: process.stdout and process.stderr, or streams a test gives. `env` is what
 * colour is decided from (NO_COLOR, FORCE_COLOR, TERM): process.env, or none for a test's streams.
 */
export interface OutputStreams {
  stdout: { write(text: string): unknown; isTTY?: boolean | undefined; columns?: number | undefined };
  stderr: StatusStream;
  env?: Readonly<Record<string, string | undefined>> | undefined;
}

/** Part of a line: text, or text with a style. Either way the text is made safe before it is styled. */
export type Span = string | readonly [style: keyof Styles, text: string];

/**
 * Where a command's output goes. Data goes to stdout (JSON lines with `-F json`); notes and
 * warnings go to stderr, notes only when not `--quiet`.
 *
 * Every write passes here, and here text meets the terminal (terminal-text.ts): data — answers,
 * reasoning, listings — has its control characters shown visibly when its stream is a terminal and
 * is written exactly when it is not (a pipe or a file gets the model's bytes); notes, warnings and
 * errors are messages for people and are always made visible; JSON keeps the exact text, with the
 * controls JSON.stringify leaves raw written as `\u` escapes.
 */
export class Output {
  private readonly warned = new Set<string>();
  /** Styles for stdout and for stderr, each decided for its own stream (color-choice.ts). */
  readonly styles: { stdout: Styles; stderr: Styles };
  /** The status line of stderr (status-line.ts): progress, retry notices and the spinner share it. */
  readonly status: StatusLine;

  constructor(
    readonly options: Pick<GlobalOptions, 'format' | 'quiet' | 'color'> & Partial<Pick<GlobalOptions, 'render'>>,
    private readonly streams: OutputStreams = process,
    status?: StatusLine,
  ) {
    this.status = status ?? new StatusLine(streams.stderr);
    const env = streams.env ?? {};
    const enabled = (stream: { isTTY?: boolean | undefined }) => colorEnabled({ isTTY: stream.isTTY, color: options.color, format: options.format, env });
    this.styles = { stdout: stylesFor(enabled(streams.stdout)), stderr: stylesFor(enabled(streams.stderr)) };
  }

  /**
   * Whether an answer is rendered as Markdown: stdout is a terminal and the text is for a person
   * (neither JSON nor --quiet), and neither --no-render nor `style.render = false` said no.
   */
  rendersMarkdown(configured: boolean): boolean {
    return configured && this.options.render !== false && this.streams.stdout.isTTY === true && !this.json && !this.options.quiet;
  }

  /** Whether stdout is a terminal and gets text for people (not JSON): where a document is laid out over lines. */
  get stdoutForPeople(): boolean {
    return this.streams.stdout.isTTY === true && !this.json;
  }

  /** Whether stdout gets colour (color-choice.ts). */
  get stdoutColor(): boolean {
    return this.styles.stdout !== PLAIN;
  }

  /** The terminal's width for laying text out: 80 when it reports none. */
  get stdoutColumns(): number {
    const columns = this.streams.stdout.columns;
    return columns !== undefined && columns > 0 ? columns : 80;
  }

  /** The same output with stdout silenced: notes and warnings still reach stderr. */
  silenced(): Output {
    const quiet = new Output(this.options, this.streams, this.status);
    quiet.data = () => undefined;
    quiet.write = () => undefined;
    quiet.line = () => undefined;
    quiet.warn = (message) => this.warn(message);
    return quiet;
  }

  get json(): boolean {
    return this.options.format === 'json';
  }

  /** Whether the status line is drawn: stderr is a terminal and output is neither `--quiet` nor JSON. */
  get drawsStatus(): boolean {
    return this.status.isTerminal && !this.options.quiet && !this.json;
  }

  /** One JSON value as one line on stdout. */
  data(value: unknown): void {
    this.streams.stdout.write(`${terminalSafeJson(value)}\n`);
  }

  write(text: string): void {
    this.streams.stdout.write(this.forStdout(text));
  }

  /** Text already made visible and styled by jp (the Markdown renderer): written as it is. */
  writeStyled(text: string): void {
    this.streams.stdout.write(text);
  }

  /** A line on stdout from spans: each one's text is made safe first (on a terminal), then styled. */
  line(...spans: Span[]): void {
    this.streams.stdout.write(`${spans.map((span) => this.span(span)).join('')}\n`);
  }

  /** Model text for stderr (streamed reasoning): visible on a terminal, exact elsewhere. */
  aside(text: string, options: { dim?: boolean } = {}): void {
    if (this.streams.stderr.isTTY !== true) this.streams.stderr.write(text);
    else this.streams.stderr.write(options.dim ? this.styles.stderr.dim(visibleText(text)) : visibleText(text));
  }

  /** A note for people (stderr), silenced by `--quiet` and in JSON mode. */
  note(message: string, options: { dim?: boolean } = {}): void {
    if (this.options.quiet || this.json) return;
    this.streams.stderr.write(`${options.dim ? this.styles.stderr.dim(visibleText(message)) : visibleText(message)}\n`);
  }

  /** A warning (stderr), each distinct message once per run. */
  warn(message: string): void {
    if (this.warned.has(message)) return;
    this.warned.add(message);
    if (this.json) this.streams.stderr.write(`${terminalSafeJson({ warning: message })}\n`);
    else this.streams.stderr.write(`${this.styles.stderr.warning('jp: warning:')} ${visibleText(message)}\n`);
  }

  /** The error a command ends with (stderr): `jp: <message>`, or a JSON object with `-F json`. */
  error(error: { code: string; exitCode: number; message: string }): void {
    if (this.json) this.streams.stderr.write(`${terminalSafeJson({ error })}\n`);
    else this.streams.stderr.write(`${this.styles.stderr.error('jp:')} ${visibleText(error.message)}\n`);
  }

  /** Debugging detail for people (stderr), such as a stack trace with `-v`. */
  detail(text: string): void {
    this.streams.stderr.write(`${visibleText(text)}\n`);
  }

  private span(span: Span): string {
    if (typeof span === 'string') return this.forStdout(span);
    const [style, text] = span;
    return this.styles.stdout[style](this.forStdout(text));
  }

  private forStdout(text: string): string {
    return this.streams.stdout.isTTY === true ? visibleText(text) : text;
  }
}
