// Prefix stability and wire bytes over a scripted 30-turn conversation, per provider, against a
// "prepend every attachment to turn 0 on every request" baseline built from the same events.
//
//   node --import tsx bench/prefix-stability.ts [--no-check]
//
// For each provider, request k is converted from the conversation up to turn k's question. The
// prefix figure is the share of request k's message bytes (cache markers removed) that request
// k+1 repeats unchanged at the same positions — what a prompt cache can reuse. Goal: 100 %.
// Wire bytes are the 30 requests' total size; "uncached" is what a prefix cache could not serve.
// Each request must also name every text resource by its exact URI (what `refresh_resource` takes).
// The head of each request (`system` and `tools`, or each vendor's fields for them) must be request
// 0's byte for byte: jp fixes them at a conversation's first request (issue V), here through the
// app's own `frameTurn`, with refresh_resource offered from the start.
import { createHash } from 'node:crypto';
import { DEFAULT_COMPACTION_RULES, planCompaction, type ConversationEvent, type Resource } from '../packages/core/src/index.ts';
import { modelView } from '../apps/jp/src/query/model-events.ts';
import { frameTurn } from '../apps/jp/src/tools/request-frame.ts';
import { refreshResourceTool } from '../apps/jp/src/tools/refresh-resource-tool.ts';
import {
  convertToAnthropicRequest,
  convertToGoogleRequest,
  convertToOpenAICompatibleChatRequest,
  convertToOpenAIRequest,
  type ProviderRequest,
} from '../packages/providers/src/index.ts';

const TURNS = 30;
const t = '2026-01-01T00:00:00.000Z';

function text(uri: string, name: string, kib: number, seed: string): Resource {
  const line = `${seed} ${createHash('sha256').update(seed).digest('hex')}\n`;
  return { uri, name, mimeType: 'text/plain', text: line.repeat(Math.ceil((kib * 1024) / line.length)) };
}

function attachments(turn: number): Resource[] {
  if (turn === 0) return [text('file:///w/src/main.rs', 'src/main.rs', 8, 'main'), text('file:///w/README.md', 'README.md', 4, 'readme')];
  if (turn === 5) return [text('https://example.com/spec', 'https://example.com/spec', 16, 'spec')];
  if (turn === 9) return [{ uri: 'file:///w/diagram.png', name: 'diagram.png', mimeType: 'image/png', blob: new Uint8Array(12 * 1024).fill(7) }];
  if (turn === 17) return [text('cmd:git diff', 'git diff', 6, 'diff')];
  return [];
}

/** The conversation up to turn k's question: resources in the turn that attached them. */
function inline(k: number): ConversationEvent[] {
  const events: ConversationEvent[] = [];
  for (let turn = 0; turn <= k; turn++) {
    events.push({ type: 'turn_start', timestamp: t }, { type: 'chat_request', timestamp: t, content: `Question ${turn}?`, resources: attachments(turn) });
    if (turn < k) events.push({ type: 'chat_response', timestamp: t, message: `Answer ${turn}.` });
  }
  return events;
}

/** The baseline: every resource attached so far is re-sent at turn 0, as most CLIs do. */
function prepended(k: number): ConversationEvent[] {
  const all: Resource[] = [];
  for (let turn = 0; turn <= k; turn++) all.push(...attachments(turn));
  const events = inline(k).map((event) => (event.type === 'chat_request' ? { ...event, resources: [] as Resource[] } : event));
  const first = events.findIndex((event) => event.type === 'chat_request');
  events[first] = { ...(events[first] as Extract<ConversationEvent, { type: 'chat_request' }>), resources: all };
  return events;
}

/**
 * A working session: every turn calls a tool (a large result) and some reason, and a compaction by
 * the default rules (`jp conversation compact`) is appended after turn COMPACT_AFTER. Request k is
 * what the model is sent (`modelView`: superseded stubs, notices, compactions, deduplication).
 */
const COMPACT_AFTER = 14;

/** What each provider hands back with its reasoning, as jp stores it (RFD 028); OpenRouter and Ollama send none back. */
function opaqueFor(provider: string, turn: number, id: string): { provider: string; items: Array<Record<string, unknown>> } | undefined {
  const secret = createHash('sha256').update(`${provider}${turn}`).digest('base64');
  if (provider === 'anthropic') return { provider, items: [{ type: 'thinking', thinking: `Thinking about ${turn}.`, signature: secret.repeat(8) }] };
  if (provider === 'openai') return { provider, items: [{ type: 'reasoning', id: `rs_${turn}`, summary: [], encrypted_content: secret.repeat(40) }] };
  if (provider === 'google') return { provider, items: [{ functionCallId: id, thoughtSignature: secret.repeat(12) }] };
  return undefined;
}

function working(k: number, provider: string): ConversationEvent[] {
  const events: ConversationEvent[] = [];
  for (let turn = 0; turn <= k; turn++) {
    events.push({ type: 'turn_start', timestamp: t }, { type: 'chat_request', timestamp: t, content: `Question ${turn}?`, resources: attachments(turn) });
    if (turn === k) break;
    const id = `call_${turn}`;
    if (turn % 3 === 0) {
      const opaque = opaqueFor(provider, turn, id);
      events.push({ type: 'chat_response', timestamp: t, reasoning: `Thinking about ${turn}. `.repeat(20), ...(opaque === undefined ? {} : { opaque }) });
    }
    events.push(
      { type: 'tool_call_request', timestamp: t, id, name: 'read_file', arguments: { path: `src/${turn}.rs` } },
      { type: 'tool_call_response', timestamp: t, id, isError: false, content: [{ type: 'text', text: `result ${turn} `.repeat(300) }] },
      { type: 'chat_response', timestamp: t, message: `Answer ${turn}.` },
    );
    if (turn === COMPACT_AFTER) events.push(planCompaction(events, DEFAULT_COMPACTION_RULES, t)!);
  }
  return modelView(events, { enabled: true, minBytes: 300 });
}

type Convert = (request: ProviderRequest) => { request: unknown };
const providers: Array<[string, Convert]> = [
  ['anthropic', convertToAnthropicRequest as Convert],
  ['openai', convertToOpenAIRequest as Convert],
  ['google', convertToGoogleRequest as Convert],
  ['openrouter', ((request: ProviderRequest) => convertToOpenAICompatibleChatRequest(request, 'openrouter')) as Convert],
  ['ollama', ((request: ProviderRequest) => convertToOpenAICompatibleChatRequest(request, 'ollama')) as Convert],
];

function messagesOf(request: unknown): string[] {
  const wire = JSON.parse(JSON.stringify(request, (key, value: unknown) => (key === 'cache_control' ? undefined : value))) as Record<string, unknown>;
  const list = (wire.messages ?? wire.input ?? wire.contents) as unknown[];
  return list.map((message) => JSON.stringify(message));
}

/** Text-resource URIs of the events that the wire request does not spell out (JSON-escaped). */
function unnamedUris(events: ConversationEvent[], request: unknown): string[] {
  const wire = JSON.stringify(request);
  const resources = events.flatMap((event) => (event.type === 'chat_request' ? (event as Extract<ConversationEvent, { type: 'chat_request' }>).resources : []));
  const uris = resources.filter((resource: Resource) => 'text' in resource).map((resource) => resource.uri);
  return uris.filter((uri) => !wire.includes(JSON.stringify(uri).slice(1, -1)));
}

/** The share of request k's message bytes that request k+1 repeats at the same positions, over k in [from, to). */
function prefixShare(messages: string[][], from: number, to: number): number {
  let earlier = 0;
  let reused = 0;
  for (let k = from; k < to; k++) {
    const before = messages[k]!;
    const after = messages[k + 1]!;
    for (let i = 0; i < before.length; i++) {
      earlier += before[i]!.length;
      if (after[i] !== before[i]) break;
      reused += before[i]!.length;
    }
  }
  return reused / earlier;
}

const SYSTEM = 'You are the assistant of a programmer; answer briefly.';

/** The system prompt and tools of request k as jp makes them: the frame fixed at the first request. */
function frameAt(events: ConversationEvent[]): { system?: string; tools: ProviderRequest['tools'] } {
  const first = frameTurn({ history: events.slice(0, 2), system: SYSTEM, all: [refreshResourceTool], offered: [refreshResourceTool], missing: () => undefined });
  const history = events.map((event, i) => (i === 1 && first.request.frame !== undefined ? ({ ...event, frame: first.request.frame } as ConversationEvent) : event));
  const { frame } = frameTurn({ history, system: SYSTEM, all: [refreshResourceTool], offered: [refreshResourceTool], missing: () => undefined });
  return { system: frame.system, tools: frame.tools };
}

/** A request without its conversation: what it says before the messages (system, tools), cache markers removed. */
function headOf(request: unknown): string {
  const wire = JSON.parse(JSON.stringify(request, (key, value: unknown) => (key === 'cache_control' ? undefined : value))) as Record<string, any>;
  const chatSystem = Array.isArray(wire.messages) && wire.messages[0]?.role === 'system' ? wire.messages[0] : undefined;
  return JSON.stringify([wire.system, wire.instructions, wire.tools, wire.config?.systemInstruction, wire.config?.tools, chatSystem]);
}

function measure(convert: Convert, build: (k: number) => ConversationEvent[], model: string) {
  const requests = Array.from({ length: TURNS }, (_, k) => {
    const events = build(k);
    return convert({ model, events, ...frameAt(events) }).request;
  });
  const heads = new Set(requests.map(headOf));
  const unnamed = [...new Set(requests.flatMap((request, k) => unnamedUris(build(k), request)))];
  const messages = requests.map(messagesOf);
  let earlier = 0;
  let reused = 0;
  // Bytes a prompt cache cannot serve: all of request 0, then whatever follows the reused prefix.
  let uncached = messages[0]!.reduce((sum, message) => sum + message.length, 0);
  for (let k = 0; k + 1 < TURNS; k++) {
    const before = messages[k]!;
    const after = messages[k + 1]!;
    let common = 0;
    for (let i = 0; i < before.length; i++) {
      earlier += before[i]!.length;
      if (after[i] !== before[i]) break; // a cache reuses a prefix: nothing after the first difference counts
      reused += before[i]!.length;
      common += 1;
    }
    uncached += after.slice(common).reduce((sum, message) => sum + message.length, 0);
  }
  const wire = requests.reduce<number>((sum, request) => sum + JSON.stringify(request).length, 0);
  return { prefix: reused / earlier, wire, uncached, unnamed, head: heads.size === 1 };
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
console.log(`prefix stability over ${TURNS} turns (text at 0, 5, 17; image at 9)`);
console.log(
  `${'provider'.padEnd(11)} ${'prefix'.padStart(8)} ${'system+tools'.padStart(13)} ${'wire'.padStart(10)} ${'uncached'.padStart(10)}   ${'baseline: prefix'.padStart(16)} ${'wire'.padStart(10)} ${'uncached'.padStart(10)}`,
);
let failed = false;
for (const [name, convert] of providers) {
  const model = name === 'openrouter' ? 'anthropic/claude-test' : 'model';
  const ours = measure(convert, inline, model);
  const base = measure(convert, prepended, model);
  if (ours.prefix < 1 || !ours.head) failed = true;
  if (ours.unnamed.length > 0) {
    failed = true;
    console.log(`${name}: a request does not name ${ours.unnamed.join(', ')} by URI`);
  }
  const pct = (share: number) => `${(share * 100).toFixed(1)} %`;
  console.log(
    `${name.padEnd(11)} ${pct(ours.prefix).padStart(8)} ${(ours.head ? 'same' : 'CHANGED').padStart(13)} ${kib(ours.wire).padStart(10)} ${kib(ours.uncached).padStart(10)}   ${pct(base.prefix).padStart(16)} ${kib(base.wire).padStart(10)} ${kib(base.uncached).padStart(10)}`,
  );
}
console.log('');
console.log(`with tool calls, reasoning (each provider's opaque data replayed) and a compaction by the default rules after turn ${COMPACT_AFTER} (prefix before it, the one deliberate break, after it)`);
console.log(`${'provider'.padEnd(11)} ${'before'.padStart(8)} ${'break'.padStart(8)} ${'after'.padStart(8)}  opaque replayed`);
for (const [name, convert] of providers) {
  const model = name === 'openrouter' ? 'anthropic/claude-test' : 'model';
  const requests = Array.from({ length: TURNS }, (_, k) => {
    const events = working(k, name);
    return convert({ model, events, ...frameAt(events) }).request;
  });
  const messages = requests.map(messagesOf);
  if (new Set(requests.map(headOf)).size !== 1) failed = true;
  // The provider's opaque reasoning data really is in the requests (the break aside, compaction strips it).
  const stored = opaqueFor(name, 0, 'call_0')?.items[0];
  const secret = stored === undefined ? undefined : String(stored.signature ?? stored.encrypted_content ?? stored.thoughtSignature);
  const replayed = secret !== undefined && JSON.stringify(requests[COMPACT_AFTER]).includes(secret);
  if (secret !== undefined && !replayed) failed = true;
  const compactedAt = COMPACT_AFTER + 1;
  const before = prefixShare(messages, 0, compactedAt - 1);
  const broken = prefixShare(messages, compactedAt - 1, compactedAt);
  const after = prefixShare(messages, compactedAt, TURNS - 1);
  if (before < 1 || after < 1) failed = true;
  const pct = (share: number) => `${(share * 100).toFixed(1)} %`;
  console.log(`${name.padEnd(11)} ${pct(before).padStart(8)} ${pct(broken).padStart(8)} ${pct(after).padStart(8)}  ${secret === undefined ? 'none to replay' : replayed ? 'yes' : 'NO'}`);
}
if (failed && !process.argv.includes('--no-check')) {
  console.log('a provider reuses less than 100 % of the earlier request, or leaves a resource URI out');
  process.exitCode = 1;
}
