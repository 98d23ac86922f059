/** Options every command accepts (ARCHITECTURE §8). */
export interface GlobalOptions {
  workspace?: string | undefined;
  cfg: string[];
  format: 'text' | 'json';
  quiet: boolean;
  /** False with `--no-color`; the environment and the stream decide the rest (output/color-choice.ts). */
  color: boolean;
  verbose: boolean;
}

export function readGlobalOptions(raw: Record<string, unknown>): GlobalOptions {
  return {
    workspace: typeof raw.workspace === 'string' ? raw.workspace : undefined,
    cfg: Array.isArray(raw.cfg) ? (raw.cfg as string[]) : [],
    format: raw.format === 'json' ? 'json' : 'text',
    quiet: raw.quiet === true,
    color: raw.color !== false,
    verbose: raw.verbose === true,
  };
}
