/** Options every command accepts (ARCHITECTURE §8). */
export interface GlobalOptions {
  workspace?: string | undefined;
  cfg: string[];
  format: 'text' | 'json';
  quiet: boolean;
  /** False with `--no-color`; the environment and the stream decide the rest (output/color-choice.ts). */
  color: boolean;
  /** False with `--no-render`: answers print as the model wrote them, even on a terminal (RFD 026). */
  render: boolean;
  verbose: boolean;
}

/**
 * `--lock-timeout SECS` is `-c conversation.lock_timeout_secs=SECS` by a name people look for
 * (issue W): the value is checked where every `-c` is, and named in errors as that `-c`.
 */
function cfgOf(raw: Record<string, unknown>): string[] {
  const cfg = Array.isArray(raw.cfg) ? (raw.cfg as string[]) : [];
  return typeof raw.lockTimeout === 'string' ? [...cfg, `conversation.lock_timeout_secs=${raw.lockTimeout}`] : cfg;
}

export function readGlobalOptions(raw: Record<string, unknown>): GlobalOptions {
  return {
    workspace: typeof raw.workspace === 'string' ? raw.workspace : undefined,
    cfg: cfgOf(raw),
    format: raw.format === 'json' ? 'json' : 'text',
    quiet: raw.quiet === true,
    color: raw.color !== false,
    render: raw.render !== false,
    verbose: raw.verbose === true,
  };
}
