/** Where values are read from: the workspace, and the conversation named on the command line. */
export interface CompletionScope {
  /** `.jp/` of the workspace, `undefined` outside one. */
  jpDir: string | undefined;
  /** The conversation named by `--id`; otherwise `$JP_CONVERSATION` or the active one. */
  id?: string | undefined;
}
