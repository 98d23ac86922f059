/** A stateful-tool call jp cannot carry out: its message becomes a tool error the model reads. */
export class HandleInputError extends Error {
  override name = 'HandleInputError';
}
