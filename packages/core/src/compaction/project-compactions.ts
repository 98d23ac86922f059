import type { ContentBlock } from '../content-block.ts';
import type { ChatRequestEvent, ChatResponseEvent, ConversationEvent, ToolCallRequestEvent, ToolCallResponseEvent, TurnStartEvent } from '../conversation-event.ts';
import type { Resource } from '../resource.ts';
import { isRefResource, isTextResource, resourceByteLength } from '../resource-content.ts';
import { isSupersededStub } from '../superseded-snapshots.ts';
import { groupTurns } from '../turns.ts';
import type { CompactionEvent } from './compaction-event.ts';
import type { ToolPolicy } from './tool-policies.ts';
import { compactedResource, compactedToolResultText } from './compaction-stub.ts';

/** How one turn is sent, all compactions composed. */
export interface TurnPolicy {
  reasoning: 'keep' | 'strip';
  tools: ToolPolicy;
  resources: 'keep' | 'stub';
  /** The compaction whose summary stands for this turn, if one does. */
  summary?: CompactionEvent | undefined;
}

const KEEP: TurnPolicy = { reasoning: 'keep', tools: 'keep', resources: 'keep' };

/**
 * A `turn_start` of the model's view that stands for turn `turn` of the stream: after a summary,
 * the view has fewer turns than the stream, and stages that name turns (deduplication's "attached
 * in turn N") read the stream's number from here.
 */
export interface NumberedTurnStart extends TurnStartEvent {
  turn: number;
}

/** The compactions in force: every one after the newest reset, in stream order. */
export function activeCompactions(events: readonly ConversationEvent[]): CompactionEvent[] {
  const all = events.filter((event): event is CompactionEvent => event.type === 'compaction');
  const reset = all.findLastIndex((event) => event.reset === true);
  return all.slice(reset + 1);
}

/** Each turn's policy: for each kind, the newest compaction covering the turn that decides the kind. */
export function turnPolicies(turnCount: number, active: readonly CompactionEvent[]): TurnPolicy[] {
  const out: TurnPolicy[] = [];
  for (let turn = 0; turn < turnCount; turn++) {
    const policy: TurnPolicy = { ...KEEP };
    const decided = new Set<string>();
    for (let i = active.length - 1; i >= 0 && decided.size < 4; i--) {
      const compaction = active[i]!;
      if (compaction.from === undefined || compaction.to === undefined || turn < compaction.from || turn > compaction.to) continue;
      if (compaction.reasoning !== undefined && !decided.has('reasoning')) (policy.reasoning = compaction.reasoning), decided.add('reasoning');
      if (compaction.tools !== undefined && !decided.has('tools')) (policy.tools = compaction.tools), decided.add('tools');
      if (compaction.resources !== undefined && !decided.has('resources')) (policy.resources = compaction.resources), decided.add('resources');
      if (compaction.summary !== undefined && !decided.has('summary')) (policy.summary = compaction), decided.add('summary');
    }
    out.push(policy);
  }
  return out;
}

/**
 * What the model is sent of a stream with compactions (RFD 027): compaction events leave the
 * view; turns a summary stands for become one request/answer pair in the place of the first of
 * them; in other covered turns reasoning is dropped, tool arguments/results are stubbed or the
 * pairs left out, and resources become stubs that keep their URI and MIME type. Pure and a
 * function of the events alone: after a compaction, request k+1 begins with request k again.
 * Without compactions the events are returned as they are.
 */
export function projectCompactions(events: readonly ConversationEvent[]): ConversationEvent[] {
  if (!events.some((event) => event.type === 'compaction')) return [...events];
  const { preamble, turns } = groupTurns(events);
  const policies = turnPolicies(turns.length, activeCompactions(events));
  const toolNames = new Map<string, string>();
  for (const event of events) if (event.type === 'tool_call_request') toolNames.set((event as ToolCallRequestEvent).id, (event as ToolCallRequestEvent).name);

  const out: ConversationEvent[] = preamble.filter((event) => event.type !== 'compaction');
  let renumber = false;
  for (let index = 0; index < turns.length; index++) {
    const policy = policies[index]!;
    const summary = policy.summary;
    if (summary !== undefined) {
      let last = index;
      while (last + 1 < turns.length && policies[last + 1]!.summary === summary) last++;
      out.push(...summaryPair(summary, turns.slice(index, last + 1)));
      index = last;
      renumber = true;
      continue;
    }
    for (const event of turns[index]!.events) {
      if (event.type === 'turn_start' && renumber) {
        out.push({ ...(event as TurnStartEvent), turn: index } satisfies NumberedTurnStart);
        continue;
      }
      const projected = projectEvent(event, policy, index, toolNames);
      if (projected !== undefined) out.push(projected);
    }
  }
  return out;
}

function projectEvent(event: ConversationEvent, policy: TurnPolicy, turn: number, toolNames: ReadonlyMap<string, string>): ConversationEvent | undefined {
  switch (event.type) {
    case 'compaction':
      return undefined;
    case 'chat_response':
      return policy.reasoning === 'strip' && (event as ChatResponseEvent).reasoning !== undefined ? undefined : event;
    case 'tool_call_request': {
      if (policy.tools === 'omit') return undefined;
      if (policy.tools !== 'strip-arguments' && policy.tools !== 'strip') return event;
      return { ...(event as ToolCallRequestEvent), arguments: {} };
    }
    case 'tool_call_response': {
      const response = event as ToolCallResponseEvent;
      if (policy.tools === 'omit') return undefined;
      if (policy.tools === 'strip-results' || policy.tools === 'strip') {
        const text = compactedToolResultText(toolNames.get(response.id) ?? 'a tool', response.id, response.isError);
        return { type: 'tool_call_response', timestamp: response.timestamp, id: response.id, isError: response.isError, content: [{ type: 'text', text }] };
      }
      if (policy.resources !== 'stub') return event;
      let changed = false;
      const content = response.content.map((block): ContentBlock => {
        if (block.type !== 'resource' || !stubbable(block.resource)) return block;
        changed = true;
        const resource = compactedResource(block.resource, { turn, toolCallId: response.id });
        return { ...block, resource, formatted: resource.formatted };
      });
      return changed ? { ...response, content } : event;
    }
    case 'chat_request': {
      const request = event as ChatRequestEvent;
      if (policy.resources !== 'stub' || !request.resources.some(stubbable)) return event;
      return { ...request, resources: request.resources.map((resource) => (stubbable(resource) ? compactedResource(resource, { turn }) : resource)) };
    }
    default:
      return event;
  }
}

/** Content worth stubbing: anything but a superseded snapshot's stub, which already is one line. */
function stubbable(resource: Resource): boolean {
  return !(isTextResource(resource) && isSupersededStub(resource));
}

interface HeldResource {
  uri: string;
  mimeType: string | undefined;
  size: number;
  sha256: string | undefined;
  turn: number;
}

/** Every resource URI the turns held, with its newest snapshot there, in order of first appearance. */
function heldResources(turns: ReadonlyArray<{ index: number; events: ConversationEvent[] }>): HeldResource[] {
  const held = new Map<string, HeldResource>();
  const saw = (resource: Resource, turn: number) => {
    if (isTextResource(resource) && isSupersededStub(resource)) {
      if (!held.has(resource.uri)) held.set(resource.uri, { uri: resource.uri, mimeType: undefined, size: 0, sha256: undefined, turn });
      return;
    }
    const sha256 = isRefResource(resource) ? resource.ref.sha256 : undefined;
    held.set(resource.uri, { uri: resource.uri, mimeType: resource.mimeType, size: resourceByteLength(resource), sha256, turn });
  };
  for (const turn of turns) {
    for (const event of turn.events) {
      if (event.type === 'chat_request') for (const resource of (event as ChatRequestEvent).resources) saw(resource, turn.index);
      if (event.type === 'tool_call_response') {
        for (const block of (event as ToolCallResponseEvent).content) if (block.type === 'resource') saw(block.resource, turn.index);
      }
    }
  }
  return [...held.values()];
}

/** The user side of a summary pair: which turns it stands for, and every resource URI they held. */
export function summaryRequestText(from: number, to: number, model: string, held: readonly HeldResource[]): string {
  const range = from === to ? `turn ${from}` : `turns ${from}–${to}`;
  const lines = [`[jp: ${range} of this conversation were compacted; the answer below summarises them (written by ${model}).]`];
  if (held.length === 0) lines.push('They held no resources.');
  else {
    lines.push('Resources they held (the content is no longer in this conversation; refresh_resource reads one again):');
    for (const resource of held) {
      const facts = [resource.mimeType, resource.sha256 === undefined ? undefined : `${resource.size} bytes`, `turn ${resource.turn}`].filter((fact) => fact !== undefined);
      lines.push(`- ${resource.uri} (${facts.join(', ')})`);
    }
  }
  return lines.join('\n');
}

function summaryPair(compaction: CompactionEvent, turns: ReadonlyArray<{ index: number; events: ConversationEvent[] }>): ConversationEvent[] {
  const summary = compaction.summary!;
  const first = turns[0]!;
  const last = turns.at(-1)!;
  const timestamp = (first.events[0] as TurnStartEvent).timestamp;
  const start: NumberedTurnStart = { type: 'turn_start', timestamp, turn: last.index };
  const request: ChatRequestEvent = { type: 'chat_request', timestamp, content: summaryRequestText(first.index, last.index, summary.model, heldResources(turns)), resources: [] };
  const answer: ChatResponseEvent = { type: 'chat_response', timestamp: compaction.timestamp, message: summary.text };
  return [start, request, answer];
}
