import { describeCompaction } from '@jp/core';
import { describeModelCall } from '../conversation/describe-model-call.ts';
import type {
  ChatRequestEvent,
  CompactionEvent,
  ModelCallEvent,
  RemovalEvent,
  TitleEvent,
  ChatResponseEvent,
  ConfigDeltaEvent,
  ContentBlock,
  ConversationEvent,
  ToolCallRequestEvent,
  ToolCallResponseEvent,
} from '@jp/core';
import type { ContentReader } from './content-reader.ts';
import { escapeHtml } from './escape-html.ts';
import { renderMarkdown } from './render-markdown.ts';
import { renderResource } from './render-resource.ts';
import type { SnapshotStatus } from './resource-status.ts';

/** What rendering one event needs besides the event. */
export interface EventContext {
  reader: ContentReader;
  /** The status of the next snapshot, in stream order (`snapshotStatuses`). */
  nextStatus: () => SnapshotStatus;
  /** Tool names by call id, for naming results. */
  toolNames: Map<string, string>;
}

/** A config delta as `key = value` lines, dotted keys and TOML-like values, in the order set. */
export function configLines(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${prefix} = ${JSON.stringify(value)}`];
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return prefix === '' ? [] : [`${prefix} = {}`];
  return entries.flatMap(([key, inner]) => configLines(inner, prefix === '' ? key : `${prefix}.${key}`));
}

const json = (value: unknown) => `<pre class="json">${escapeHtml(JSON.stringify(value, null, 2) ?? 'null')}</pre>`;

/** A tool result's block, by type (RFD 058): text folded, a resource like an attachment, a question as asked. */
function renderBlock(block: ContentBlock, ctx: EventContext): string {
  switch (block.type) {
    case 'text':
      return `<details class="block"><summary>text, ${block.text.length.toLocaleString('en-US')} characters</summary><pre>${escapeHtml(block.text)}</pre></details>`;
    case 'resource':
      return renderResource(block.resource, ctx.nextStatus(), ctx.reader);
    case 'question':
      return `<div class="block question"><p><strong>question</strong> ${escapeHtml(block.question.text)}</p>${json(block.question.schema)}</div>`;
    default:
      return `<div class="block">${json(block)}</div>`;
  }
}

/** One event as HTML; every piece of model, tool or user text escaped (answers through the Markdown renderer, raw HTML off). */
export function renderEvent(event: ConversationEvent, ctx: EventContext): string {
  switch (event.type) {
    case 'turn_start':
      return '';
    case 'chat_request': {
      const request = event as ChatRequestEvent;
      const parts = [`<div class="query"><h3>Query</h3><pre class="text">${escapeHtml(request.content)}</pre></div>`];
      for (const notice of request.notices ?? []) parts.push(`<p class="notice">notice: ${escapeHtml(notice.text)}</p>`);
      if (request.resources.length > 0) {
        parts.push(`<div class="resources"><h3>Resources (${request.resources.length})</h3>`);
        for (const resource of request.resources) parts.push(renderResource(resource, ctx.nextStatus(), ctx.reader));
        parts.push('</div>');
      }
      for (const mark of request.superseded ?? []) parts.push(`<p class="dim">from here on, the snapshot of ${escapeHtml(mark.uri)} from turn ${mark.turn} is sent as a stub</p>`);
      return parts.join('\n');
    }
    case 'chat_response': {
      const response = event as ChatResponseEvent;
      if ('message' in response && typeof response.message === 'string') return `<div class="answer"><h3>Answer</h3>${renderMarkdown(response.message)}</div>`;
      if ('reasoning' in response && typeof response.reasoning === 'string') {
        return `<details class="reasoning"><summary>reasoning</summary><pre>${escapeHtml(response.reasoning)}</pre></details>`;
      }
      return `<div class="answer"><h3>Answer (structured)</h3>${json(response.structured)}</div>`;
    }
    case 'tool_call_request': {
      const call = event as ToolCallRequestEvent;
      ctx.toolNames.set(call.id, call.name);
      return `<div class="tool-call"><h3>Tool call <code>${escapeHtml(call.name)}</code> <small class="dim">${escapeHtml(call.id)}</small></h3>${json(call.arguments)}</div>`;
    }
    case 'tool_call_response': {
      const result = event as ToolCallResponseEvent;
      const name = ctx.toolNames.get(result.id) ?? result.id;
      const status = result._meta?.['computer.jp/status'];
      const tags = `${result.isError ? ' <span class="status error">error</span>' : ''}${typeof status === 'string' ? ` <span class="status">${escapeHtml(status)}</span>` : ''}`;
      const blocks = result.content.map((block) => renderBlock(block, ctx)).join('\n');
      return `<div class="tool-result${result.isError ? ' error' : ''}"><h3>Result of <code>${escapeHtml(name)}</code>${tags}</h3>${blocks}</div>`;
    }
    case 'config_delta': {
      const delta = event as ConfigDeltaEvent;
      const what = delta.source === 'files' ? 'config changed in .jp/config.toml' : 'config set';
      const lines = [...configLines(delta.delta), ...(delta.removed ?? []).map((key) => `${key.join('.')} removed`)];
      return `<div class="config dim"><p>${what}:</p><pre class="config-lines">${escapeHtml(lines.join('\n'))}</pre></div>`;
    }
    case 'title':
      return `<p class="dim">title set to ${escapeHtml(JSON.stringify((event as TitleEvent).title))}</p>`;
    case 'removal':
      return `<p class="dim">removed (jp conversation rm) after ${(event as RemovalEvent).turns} turns; later turns from another clone keep the conversation</p>`;
    case 'model_call':
      return describeModelCall(event as ModelCallEvent).map((note) => `<p class="dim model-call">${escapeHtml(note)}</p>`).join('');
    case 'branch_removal':
      return `<p class="dim">branch ~${escapeHtml((event as { branch: string }).branch)} removed (jp conversation rm)</p>`;
    case 'compaction': {
      const compaction = event as CompactionEvent;
      const summary = compaction.summary === undefined ? '' : `<div class="answer"><h3>Summary sent instead</h3>${renderMarkdown(compaction.summary.text)}</div>`;
      return `<div class="compaction"><p class="dim">${escapeHtml(describeCompaction(compaction))}</p>${summary}</div>`;
    }
    default:
      return `<p class="dim">(${escapeHtml(event.type)} event)</p>`;
  }
}
