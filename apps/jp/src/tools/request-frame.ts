import type { ChatRequestEvent, ConversationEvent, FramedTool, RequestFrame } from '@jp/core';
import type { JpTool } from './jp-tool.ts';

/** What the frame decides for one turn. */
export interface FramedTurn {
  /** The system prompt and tools every request of the conversation sends. */
  frame: RequestFrame;
  /** Fields this turn's `chat_request` stores: the frame when this turn fixes it, notes, refused tools, a changed system prompt. */
  request: Pick<ChatRequestEvent, 'frame' | 'notes' | 'refused_tools' | 'system_prompt'>;
  /** Framed tools that cannot run this turn, with why: a call to one gets an error result. */
  refused: Map<string, string>;
  /** Tools that can run now but came after the frame: not offered (said on stderr). */
  unframed: string[];
}

function latest<T>(history: readonly ConversationEvent[], pick: (request: ChatRequestEvent) => T | undefined): T | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const event = history[i]!;
    if (event.type !== 'chat_request') continue;
    const value = pick(event as ChatRequestEvent);
    if (value !== undefined) return value;
  }
  return undefined;
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((name) => b.includes(name));

/**
 * A conversation's system prompt and tools are fixed at its first request and sent byte for byte
 * from then on (issue V, RFD 020): a tool that is missing now (`--tool`/`--no-tool`, an MCP
 * server that did not start, a tool no longer configured) stays in `tools`, its calls get an error
 * result, and a note in this turn's message tells the model what it cannot use (and, later, that
 * it can again). A changed system prompt is said in a note too. The note is stored with the turn,
 * so later requests repeat it byte for byte.
 */
export function frameTurn(options: {
  history: readonly ConversationEvent[];
  system: string | undefined;
  /** Every tool that can run now, unrestricted. */
  all: readonly JpTool[];
  /** What `--tool`/`--no-tool` leave of them. */
  offered: readonly JpTool[];
  /** Why a tool of a server that did not start is missing, by tool or server name. */
  missing: (name: string) => string | undefined;
}): FramedTurn {
  const definition = (tool: JpTool): FramedTool => ({ name: tool.definition.name, description: tool.definition.description, parameters: tool.definition.parameters });
  const stored = latest(options.history, (request) => request.frame);
  const request: FramedTurn['request'] = {};
  const frame = stored ?? { ...(options.system !== undefined && options.system !== '' ? { system: options.system } : {}), tools: options.all.map(definition) };
  if (stored === undefined) request.frame = frame;

  const runnable = new Set(options.offered.map((tool) => tool.definition.name));
  const present = new Set(options.all.map((tool) => tool.definition.name));
  const refused = new Map<string, string>();
  for (const tool of frame.tools) {
    if (runnable.has(tool.name)) continue;
    refused.set(tool.name, present.has(tool.name) ? 'not offered in this query' : (options.missing(tool.name) ?? 'no longer configured'));
  }
  const framed = new Set(frame.tools.map((tool) => tool.name));
  const unframed = options.offered.map((tool) => tool.definition.name).filter((name) => !framed.has(name));

  const notes: string[] = [];
  const before = latest(options.history, (previous) => previous.refused_tools) ?? [];
  const now = [...refused.keys()];
  if (!sameSet(before, now)) {
    if (now.length > 0) notes.push(`Not available from this message on (a call returns an error): ${now.map((name) => `${name} (${refused.get(name)})`).join(', ')}.`);
    const back = before.filter((name) => !refused.has(name) && framed.has(name));
    if (back.length > 0) notes.push(`Available again: ${back.join(', ')}.`);
    request.refused_tools = now;
  }
  const system = options.system ?? '';
  const inForce = latest(options.history, (previous) => previous.system_prompt) ?? frame.system ?? '';
  if (stored !== undefined && system !== inForce) {
    notes.push(system === '' ? 'The system prompt given at the start no longer applies.' : `The system prompt changed; from this message on it is:\n${system}`);
    request.system_prompt = system;
  }
  if (notes.length > 0) request.notes = notes;
  return { frame, request, refused, unframed };
}
