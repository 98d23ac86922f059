import { groupTurns, type ConversationEvent } from '@jp/core';

/**
 * A tool call the echo model makes when asked to. A line of the newest query of the form
 *
 *   !tool <name> <JSON object>
 *
 * (the JSON may be left out for `{}`) makes echo call that tool before answering, one call per
 * directive, in order; once every directive of the turn has its call it answers as usual. This
 * lets scripts and end-to-end tests drive the tool loop (e.g. `refresh_resource`) without a key.
 */
export interface EchoToolDirective {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

const DIRECTIVE = /^!tool\s+(\S+)(?:\s+(.*))?$/;

function parseArguments(text: string | undefined): Record<string, unknown> {
  if (text === undefined || text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // Not JSON: passed on as text so the call still happens and the tool can reject it.
  }
  return { input: text };
}

/** The next directive of the newest turn that has not been called yet, if any. */
export function nextEchoToolDirective(events: readonly ConversationEvent[]): EchoToolDirective | undefined {
  const turn = groupTurns(events).turns.at(-1);
  if (turn?.request === undefined) return undefined;
  const directives = turn.request.content
    .split('\n')
    .map((line) => DIRECTIVE.exec(line.trim()))
    .filter((match) => match !== null);
  const called = turn.events.filter((event) => event.type === 'tool_call_request').length;
  const match = directives[called];
  if (match === undefined) return undefined;
  return { id: `echo_${turn.index}_${called}`, name: match[1] ?? '', arguments: parseArguments(match[2]) };
}
