/** One command to run, parsed from either cmd form; nothing here has been checked against the system. */
export interface CmdInvocation {
  /** The program: a name looked up on PATH, or a path (it contains `/`) taken from the workspace root. */
  program: string;
  args: string[];
  /** `allow_failure=true`: a non-zero exit still attaches stdout. Only the `cmd://` form can set it. */
  allowFailure: boolean;
  /** `description=…`, copied to the resource. Only the `cmd://` form can set it. */
  description?: string | undefined;
  /** Which form the user wrote: `url` is `cmd://…?arg=…`, `line` is `cmd:<command line>`. */
  form: 'url' | 'line';
}
