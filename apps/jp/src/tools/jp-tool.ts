import type { ContentBlock, ConversationEvent } from '@jp/core';
import type { AttachmentRegistry, HandlerContext } from '@jp/attachments';
import type { ToolDefinition } from '@jp/providers';
import type { Output } from '../output/output.ts';
import type { HandleRegistry } from './stateful/handle-registry.ts';

/** What a tool answers: typed content blocks (RFD 058) and whether it failed. */
export interface ToolResult {
  content: ContentBlock[];
  isError: boolean;
  /** RFD 058 metadata kept with the result, e.g. `computer.jp/status` of a stateful tool. */
  _meta?: Record<string, unknown> | undefined;
}

/** What a running tool may look at. */
export interface ToolRunContext {
  workspaceRoot: string;
  /** The conversation so far, this turn's events included. */
  events: readonly ConversationEvent[];
  /** Declared attachments of the conversation (for deciding and routing refreshes). */
  declarations: readonly string[];
  /** The configured MCP server a tool name belongs to (`mcpServerOfTool`), for refreshing what its tools returned. */
  mcpServerOfTool: (tool: string) => string | undefined;
  registry: AttachmentRegistry;
  handlerContext: HandlerContext;
  output: Output;
  /** Whether a person can answer prompts (stdin and stderr are terminals). */
  interactive: boolean;
  /** `--allow-tools`: run tools whose policy is `ask` without asking. */
  allowTools: boolean;
  /** Tools the person allowed for the rest of this turn (a "yes for the rest of this turn"). */
  approvedForTurn?: Set<string> | undefined;
  /** Runs a terminal interaction when no other tool is using the terminal. */
  prompt: <T>(interaction: () => Promise<T>) => Promise<T>;
  signal?: AbortSignal | undefined;
  /** The stateful-tool handles of this query (RFD 019); absent where no tool loop keeps them. */
  handles?: HandleRegistry | undefined;
}

export interface JpTool {
  readonly definition: ToolDefinition;
  /** `ask` tools need a yes on the terminal (or --allow-tools) before each run. */
  readonly run: 'unattended' | 'ask';
  /** Whether this call is one an `ask` policy asks about; absent: every call is. */
  asks?(args: Record<string, unknown>): boolean;
  call(args: Record<string, unknown>, ctx: ToolRunContext): Promise<ToolResult>;
  /** What is wrong with the arguments in the tool's own words, checked before the schema (whose messages are generic). */
  precheck?(args: Record<string, unknown>): string | undefined;
}

export function errorResult(text: string): ToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
