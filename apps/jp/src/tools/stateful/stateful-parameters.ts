export const STATEFUL_ACTIONS = ['spawn', 'fetch', 'apply', 'abort'] as const;
export type StatefulAction = (typeof STATEFUL_ACTIONS)[number];

/** Longest `wait_ms` a fetch may ask for. */
export const MAX_WAIT_MS = 30_000;

/** Argument names jp reads itself; a stateful tool's own parameters may not use them. */
export const RESERVED_ARGUMENTS = ['action', 'id', 'wait_ms', 'input'] as const;

const ACTION_HELP: Record<StatefulAction, string> = {
  spawn: 'spawn: start the program under a new handle id of your choosing, with the tool\'s own arguments',
  fetch: 'fetch: output and state since the last fetch; wait_ms (at most 30000) waits for something new',
  apply: 'apply: send input (a line on stdin, or the answer to a pending question)',
  abort: 'abort: stop the program',
};

/**
 * The JSON Schema offered to the model for a stateful tool (RFD 019). The actions are a `oneOf`
 * of the declared ones only, each with what it carries. The `oneOf` sits on `action`, not at the
 * top: Anthropic and OpenAI refuse a tool schema whose top level is a `oneOf`; the per-action
 * rules (`input` for apply, the tool's required parameters for spawn) are checked by jp.
 * Built from the config alone, so the definition repeats byte for byte across requests.
 */
export function statefulParameters(actions: readonly StatefulAction[], own: Record<string, unknown>): Record<string, unknown> {
  const ownProperties = (own.properties ?? {}) as Record<string, unknown>;
  const properties: Record<string, unknown> = {
    action: { oneOf: actions.map((action) => ({ const: action, description: ACTION_HELP[action] })) },
    id: { type: 'string', minLength: 1, maxLength: 64, description: 'The handle: chosen at spawn, unique within this query; named again by fetch, apply and abort' },
  };
  if (actions.includes('fetch')) properties.wait_ms = { type: 'integer', minimum: 0, maximum: MAX_WAIT_MS, description: 'fetch only: wait this long for new output or a state change' };
  if (actions.includes('apply')) properties.input = { description: 'apply only: a string written to stdin as one line, or the answer to a pending question' };
  if (actions.includes('spawn')) Object.assign(properties, ownProperties);
  return { type: 'object', properties, required: ['action', 'id'] };
}
