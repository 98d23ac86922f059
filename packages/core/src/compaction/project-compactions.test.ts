import { hash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ChatRequestEvent, ChatResponseEvent, ConversationEvent, ToolCallRequestEvent, ToolCallResponseEvent } from '../conversation-event.ts';
import { dedupeResources } from '../dedupe-resources.ts';
import type { Resource, TextResource } from '../resource.ts';
import { stubSuperseded } from '../superseded-snapshots.ts';
import type { CompactionEvent } from './compaction-event.ts';
import { compactedResourceText } from './compaction-stub.ts';
import { activeCompactions, projectCompactions } from './project-compactions.ts';

const sha = (data: string) => hash('sha256', data, 'hex');
const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();
const file = (name: string, content: string, mimeType = 'text/x-typescript'): Resource => ({
  uri: `file:///w/${name}`,
  name,
  mimeType,
  ref: { sha256: sha(content), size: Buffer.byteLength(content), encoding: 'text' },
});

/** A turn: a request with resources, reasoning, one tool call with a resource result, and an answer. */
function turn(n: number, resources: Resource[] = [], toolResource?: Resource): ConversationEvent[] {
  const call: ToolCallRequestEvent = { type: 'tool_call_request', timestamp: at(n), id: `call-${n}`, name: 'read_file', arguments: { path: `f${n}.ts` } };
  const result: ToolCallResponseEvent = {
    type: 'tool_call_response',
    timestamp: at(n),
    id: `call-${n}`,
    isError: n % 2 === 1,
    content: [{ type: 'text', text: `result ${n}` }, ...(toolResource ? [{ type: 'resource' as const, resource: toolResource }] : [])],
  };
  return [
    { type: 'turn_start', timestamp: at(n) },
    { type: 'chat_request', timestamp: at(n), content: `question ${n}`, resources },
    { type: 'chat_response', timestamp: at(n), reasoning: `thinking ${n}`, opaque: { provider: 'anthropic', items: [{ type: 'thinking', signature: `sig${n}` }] } },
    call,
    result,
    { type: 'chat_response', timestamp: at(n), message: `answer ${n}` },
  ];
}

const compaction = (fields: Partial<CompactionEvent>): CompactionEvent => ({ type: 'compaction', timestamp: at(99), ...fields }) as CompactionEvent;
const turnsOf = (events: readonly ConversationEvent[]) => {
  const out: ConversationEvent[][] = [];
  for (const event of events) (event.type === 'turn_start' ? out.push([event]) : out.at(-1)!.push(event));
  return out;
};
const requestOf = (events: readonly ConversationEvent[]) => events.find((event) => event.type === 'chat_request') as ChatRequestEvent;
const reasoningIn = (events: readonly ConversationEvent[]) => events.filter((event) => event.type === 'chat_response' && (event as ChatResponseEvent).reasoning !== undefined).length;

const a = file('a.ts', 'export const a = 1;\n'.repeat(50));
const b = file('b.ts', 'export const b = 2;\n'.repeat(50));
const stream = (): ConversationEvent[] => [...turn(0, [a]), ...turn(1, [], b), ...turn(2), ...turn(3)];

describe('projectCompactions', () => {
  it('returns the events as they are when the stream has no compaction', () => {
    const events = stream();
    const view = projectCompactions(events);
    expect(view).toEqual(events);
    view.forEach((event, i) => expect(event).toBe(events[i]));
  });

  it('strips reasoning (with its opaque data) in the covered turns only, and drops the compaction event', () => {
    const view = projectCompactions([...stream(), compaction({ from: 0, to: 1, reasoning: 'strip' })]);
    const turns = turnsOf(view);
    expect(turns.map(reasoningIn)).toEqual([0, 0, 1, 1]);
    expect(view.some((event) => event.type === 'compaction')).toBe(false);
    expect(JSON.stringify(turns.slice(0, 2))).not.toContain('sig0');
  });

  it('stubs resources, attached and returned by tools, keeping URI, MIME type, names, size and digest', () => {
    const view = projectCompactions([...stream(), compaction({ from: 0, to: 1, resources: 'stub' })]);
    const [t0, t1] = turnsOf(view);
    const stub = requestOf(t0!).resources[0] as TextResource;
    expect(stub).toEqual({ uri: a.uri, mimeType: 'text/x-typescript', name: 'a.ts', text: stub.text, formatted: stub.text });
    expect(stub.text).toBe(compactedResourceText(a, { turn: 0 }));
    expect(stub.text).toContain(`${(a as { ref: { size: number } }).ref.size} bytes`);
    expect(stub.text).toContain(`sha256 ${(a as { ref: { sha256: string } }).ref.sha256}`);
    const result = t1!.find((event) => event.type === 'tool_call_response') as ToolCallResponseEvent;
    const block = result.content.find((entry) => entry.type === 'resource');
    expect(block?.type === 'resource' && block.resource.uri).toBe(b.uri);
    expect(block?.type === 'resource' && (block.resource as TextResource).text).toBe(compactedResourceText(b, { turn: 1, toolCallId: 'call-1' }));
    // The tool result's own text stays: only the resource's content went.
    expect(result.content[0]).toEqual({ type: 'text', text: 'result 1' });
  });

  it.each([
    ['strip-arguments', { args: {}, result: false }],
    ['strip-results', { args: { path: 'f1.ts' }, result: true }],
    ['strip', { args: {}, result: true }],
  ] as const)('tools = %s replaces what it names, keeping the name, call id and error status', (tools, expected) => {
    const view = projectCompactions([...stream(), compaction({ from: 1, to: 1, tools })]);
    const t1 = turnsOf(view)[1]!;
    const call = t1.find((event) => event.type === 'tool_call_request') as ToolCallRequestEvent;
    const result = t1.find((event) => event.type === 'tool_call_response') as ToolCallResponseEvent;
    expect(call.name).toBe('read_file');
    expect(call.id).toBe('call-1');
    expect(call.arguments).toEqual(expected.args);
    expect(result.id).toBe('call-1');
    expect(result.isError).toBe(true);
    if (expected.result) expect(result.content).toEqual([{ type: 'text', text: '[compacted: the error of read_file (call call-1) is no longer in this conversation]' }]);
    else expect(result.content[0]).toEqual({ type: 'text', text: 'result 1' });
    // Turn 2 is outside the range.
    expect((turnsOf(view)[2]!.find((event) => event.type === 'tool_call_request') as ToolCallRequestEvent).arguments).toEqual({ path: 'f2.ts' });
  });

  it('tools = omit leaves the call pairs out and keeps the answers', () => {
    const view = projectCompactions([...stream(), compaction({ from: 0, to: 2, tools: 'omit' })]);
    const types = turnsOf(view).map((events) => events.map((event) => event.type).join(','));
    expect(types.slice(0, 3)).toEqual(Array(3).fill('turn_start,chat_request,chat_response,chat_response'));
    expect(types[3]).toBe('turn_start,chat_request,chat_response,tool_call_request,tool_call_response,chat_response');
  });

  it('composes: for each kind, the newest compaction covering a turn wins', () => {
    const events = [
      ...stream(),
      compaction({ from: 0, to: 3, reasoning: 'strip', resources: 'stub' }),
      compaction({ from: 1, to: 2, resources: 'keep' }),
    ];
    const turns = turnsOf(projectCompactions(events));
    // Reasoning: only the first decided it, for all four turns.
    expect(turns.map(reasoningIn)).toEqual([0, 0, 0, 0]);
    // Resources: the second keeps turns 1-2; turn 0 stays stubbed by the first.
    expect((requestOf(turns[0]!).resources[0] as TextResource).text).toContain('[compacted:');
    const result = turns[1]!.find((event) => event.type === 'tool_call_response') as ToolCallResponseEvent;
    expect(result.content[1]).toEqual({ type: 'resource', resource: b });
  });

  it('a reset cancels every compaction before it, and later ones apply again', () => {
    const first = compaction({ from: 0, to: 2, reasoning: 'strip' });
    const reset = compaction({ reset: true });
    expect(projectCompactions([...stream(), first, reset])).toEqual(stream());
    expect(activeCompactions([...stream(), first, reset])).toEqual([]);
    const after = compaction({ from: 0, to: 0, reasoning: 'strip' });
    expect(turnsOf(projectCompactions([...stream(), first, reset, after])).map(reasoningIn)).toEqual([0, 1, 1, 1]);
  });

  it('a summary stands for its turns as one request/answer pair, in the place of the first, listing every resource URI', () => {
    const summary = compaction({ from: 1, to: 2, summary: { text: 'We read b.ts and fixed f2.', model: 'anthropic/claude-x' } });
    const view = projectCompactions([...turn(0, [a]), ...turn(1, [a], b), ...turn(2), ...turn(3), summary]);
    const turns = turnsOf(view);
    expect(turns).toHaveLength(3);
    expect(turns[0]).toEqual(turn(0, [a]));
    const [start, request, answer] = turns[1]!;
    expect(start).toMatchObject({ type: 'turn_start', turn: 2 });
    expect((request as ChatRequestEvent).content).toContain('turns 1–2 of this conversation were compacted');
    expect((request as ChatRequestEvent).content).toContain(`- ${a.uri} (text/x-typescript, 1000 bytes, turn 1)`);
    expect((request as ChatRequestEvent).content).toContain(`- ${b.uri} (text/x-typescript, 1000 bytes, turn 1)`);
    expect(answer).toEqual({ type: 'chat_response', timestamp: at(99), message: 'We read b.ts and fixed f2.' });
    expect(turns[2]![0]).toMatchObject({ type: 'turn_start', turn: 3 });
    expect(turns[2]!.slice(1)).toEqual(turn(3).slice(1));
  });

  it('a later summary over part of an earlier one takes its turns; the earlier keeps the rest', () => {
    const first = compaction({ from: 0, to: 2, summary: { text: 'S1', model: 'm' } });
    const second = compaction({ from: 2, to: 3, summary: { text: 'S2', model: 'm' } });
    const turns = turnsOf(projectCompactions([...stream(), first, second]));
    expect(turns.map((events) => (events[2] as ChatResponseEvent).message)).toEqual(['S1', 'S2']);
    expect(requestOf(turns[0]!).content).toContain('turns 0–1');
    expect(requestOf(turns[1]!).content).toContain('turns 2–3');
  });

  it('deduplication after compaction sends in full a copy whose earlier delivery was compacted away', () => {
    const events = [...turn(0, [a]), ...turn(1), compaction({ from: 0, to: 0, resources: 'stub' }), ...turn(2, [a])];
    const options = { enabled: true, minBytes: 0 };
    const plain = dedupeResources(events.filter((event) => event.type !== 'compaction'), options);
    expect(requestOf(turnsOf(plain)[2]!).resources[0]!.formatted).toContain('[unchanged: same content as');
    const view = dedupeResources(projectCompactions(events), options);
    expect(requestOf(turnsOf(view)[2]!).resources[0]).toEqual(a);
  });

  it('deduplication after a summary names the stream’s turn numbers', () => {
    const events = [...turn(0), ...turn(1), ...turn(2, [a]), compaction({ from: 0, to: 1, summary: { text: 'S', model: 'm' } }), ...turn(3, [a])];
    const view = dedupeResources(projectCompactions(events), { enabled: true, minBytes: 0 });
    expect(requestOf(turnsOf(view).at(-1)!).resources[0]!.formatted).toContain('attached in turn 2');
  });

  it('a superseded stub stays as it is and is not stubbed again', () => {
    const newer = file('a.ts', 'changed\n'.repeat(40));
    const events: ConversationEvent[] = [...turn(0, [a]), ...turn(1, [newer]).map((event) => (event.type === 'chat_request' ? { ...event, superseded: [{ turn: 0, uri: a.uri }] } : event))];
    const view = projectCompactions([...stubSuperseded(events), compaction({ from: 0, to: 1, resources: 'stub' })]);
    const [t0, t1] = turnsOf(view);
    expect((requestOf(t0!).resources[0] as TextResource).text).toBe(`[superseded: ${a.uri} — newer content in turn 1]`);
    expect((requestOf(t1!).resources[0] as TextResource).text).toContain('[compacted:');
  });

  it('is prefix-stable after the compaction: a longer stream’s view begins with the shorter one’s', () => {
    const base = [...stream(), compaction({ from: 0, to: 2, reasoning: 'strip', tools: 'strip-results', resources: 'stub' })];
    const shorter = projectCompactions(base);
    const longer = projectCompactions([...base, ...turn(4, [a])]);
    expect(longer.slice(0, shorter.length)).toEqual(shorter);
  });

  it('leaves the input events unchanged', () => {
    const events = [...stream(), compaction({ from: 0, to: 3, reasoning: 'strip', tools: 'strip', resources: 'stub' })];
    const before = JSON.stringify(events);
    projectCompactions(events);
    expect(JSON.stringify(events)).toBe(before);
  });
});
