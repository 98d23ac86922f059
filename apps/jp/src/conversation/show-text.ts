import { describeCompaction, resourceByteLength, resourceEncoding, type CompactionEvent, type ModelCallEvent, type ChatRequestEvent, type ChatResponseEvent, type ConfigDeltaEvent, type RemovalEvent, type TitleEvent, type Usage, type ContentBlock, type ConversationEvent, type Turn } from '@jp/core';
import { formatKey } from '../config/format-key.ts';
import { describeModelCall } from './describe-model-call.ts';
import type { Output, Span } from '../output/output.ts';

/** Lines of a tool result's text shown before "(N more lines)". */
const PREVIEW_LINES = 4;

/** How `conversation show` prints a conversation as text; `renderMessage` gives an answer rendered for the terminal. */
export interface ShowTextOptions {
  renderMessage?: ((message: string) => string) | undefined;
}

type Line = (...spans: Span[]) => void;

/** The first lines of a tool result's text blocks, and its resources by URI. */
function describeToolResult(content: readonly ContentBlock[], line: Line): void {
  for (const block of content) {
    if (block.type === 'text') {
      const lines = block.text.replace(/\n+$/, '').split('\n');
      for (const text of lines.slice(0, PREVIEW_LINES)) line('  ', text);
      if (lines.length > PREVIEW_LINES) line(['dim', `  (${lines.length - PREVIEW_LINES} more line${lines.length - PREVIEW_LINES === 1 ? '' : 's'})`]);
    } else if (block.type === 'resource') {
      line(['resource', '  resource '], block.resource.uri);
    } else {
      line(['dim', `  (${block.type})`]);
    }
  }
}

const count = (n: number) => n.toLocaleString('en-US');

/** A turn's usage in one line: "1,200 in (1,000 from the cache), 300 out (200 reasoning)". */
export function usageText(usage: Usage): string {
  const parts: string[] = [];
  if (usage.inputTokens !== undefined) {
    const cached = usage.cacheReadTokens === undefined || usage.cacheReadTokens === 0 ? '' : ` (${count(usage.cacheReadTokens)} from the cache)`;
    parts.push(`${count(usage.inputTokens)} in${cached}`);
  }
  if (usage.outputTokens !== undefined) {
    const reasoning = usage.reasoningTokens === undefined || usage.reasoningTokens === 0 ? '' : ` (${count(usage.reasoningTokens)} reasoning)`;
    parts.push(`${count(usage.outputTokens)} out${reasoning}`);
  }
  return parts.join(', ') || 'not reported';
}

/** One event as lines: who or what in colour, the untrusted text plain (Output makes it safe). */
function describeEvent(event: ConversationEvent, output: Output, options: ShowTextOptions): void {
  const line: Line = (...spans) => output.line(...spans);
  switch (event.type) {
    case 'chat_request': {
      const request = event as ChatRequestEvent;
      line(['role', 'user:'], ` ${request.content}`);
      for (const resource of request.resources) {
        const kind = resourceEncoding(resource) === 'text' ? 'text' : 'blob';
        line(['resource', '  resource '], resource.name ?? resource.uri, '  ', ['dim', `${resource.uri}  (${resource.mimeType ?? 'unknown type'}, ${kind}, ${resourceByteLength(resource)} bytes)`]);
      }
      // Older snapshots this request began sending as stubs, and what jp told the model (RFD 020).
      for (const mark of request.superseded ?? []) line(['dim', '  superseded '], mark.uri, ['dim', ` from turn ${mark.turn} on: a newer snapshot is in this turn or later`]);
      for (const notice of request.notices ?? []) line(['dim', '  notice '], notice.text);
      break;
    }
    case 'chat_response': {
      const response = event as ChatResponseEvent;
      if ('message' in response && typeof response.message === 'string') {
        if (options.renderMessage === undefined) line(['role', 'assistant:'], ` ${response.message}`);
        else {
          line(['role', 'assistant:']);
          output.writeStyled(options.renderMessage(response.message));
        }
      } else if ('reasoning' in response) {
        // OpenAI returns only a summary of its reasoning: said so (RFD 028).
        const what = 'opaque' in response && response.opaque?.provider === 'openai' ? 'assistant (reasoning summary):' : 'assistant (reasoning):';
        line(['role', what], ' ', ['dim', response.reasoning ?? '']);
      }
      else line(['role', 'assistant (structured):'], ` ${JSON.stringify(response.structured)}`);
      if (response.usage !== undefined) line(['dim', `  tokens: ${usageText(response.usage)}`]);
      break;
    }
    case 'config_delta': {
      const delta = event as ConfigDeltaEvent;
      if (delta.source !== 'files') {
        const unset = (delta.removed ?? []).map((key) => formatKey(key));
        const set = Object.keys(delta.delta).length > 0 || unset.length === 0 ? [`config: ${JSON.stringify(delta.delta)}`] : [];
        line(['dim', [...set, ...(unset.length > 0 ? [`config unset: ${unset.join(', ')}`] : [])].join('; ')]);
        break;
      }
      const removed = (delta.removed ?? []).map((key) => formatKey(key));
      const changed = Object.keys(delta.delta).length > 0 ? JSON.stringify(delta.delta) : '';
      line(['dim', `config changed in .jp/config.toml: ${[changed, ...(removed.length > 0 ? [`removed ${removed.join(', ')}`] : [])].filter(Boolean).join('; ')}`]);
      break;
    }
    case 'tool_call_request':
      line(['role', 'tool call:'], ` ${(event as { name: string }).name} `, ['dim', JSON.stringify((event as { arguments: unknown }).arguments)]);
      break;
    case 'tool_call_response': {
      const response = event as { isError: boolean; content: ContentBlock[] };
      line(['role', 'tool result'], response.isError ? ['bad', ' (error)'] : '', ['role', ':']);
      describeToolResult(response.content, line);
      break;
    }
    case 'turn_start':
      break;
    case 'title':
      line(['dim', `title set to ${JSON.stringify((event as TitleEvent).title)}`]);
      break;
    case 'removal':
      line(['dim', `removed (jp conversation rm) after ${(event as RemovalEvent).turns} turn${(event as RemovalEvent).turns === 1 ? '' : 's'}; turns added on another clone that did not see it keep the conversation`]);
      break;
    case 'model_call':
      for (const note of describeModelCall(event as ModelCallEvent)) line(['dim', note]);
      break;
    case 'branch_removal': {
      const removal = event as { branch: string; turns: number };
      line(['dim', `branch ~${removal.branch} removed (jp conversation rm) after ${removal.turns} turn${removal.turns === 1 ? '' : 's'}`]);
      break;
    }
    case 'compaction': {
      // What the model is sent from here on (RFD 027); the turns above are shown as stored.
      const compaction = event as CompactionEvent;
      line(['dim', describeCompaction(compaction)]);
      if (compaction.summary !== undefined) line(['dim', '  summary: '], compaction.summary.text);
      break;
    }
    default:
      line(['dim', `(${event.type} event)`]);
  }
}

/** The conversation's turns (and what came before the first) as `conversation show` prints them. */
export function writeConversationText(output: Output, preamble: readonly ConversationEvent[], turns: readonly Turn[], options: ShowTextOptions = {}): void {
  // Events before the first turn: what `jp attachment add|rm` and a fork without turns recorded.
  for (const event of preamble) describeEvent(event, output, options);
  for (const turn of turns) {
    output.line();
    output.line(['heading', `── turn ${turn.index} ──`]);
    for (const event of turn.events) describeEvent(event, output, options);
  }
}
