import { hash } from 'node:crypto';
import {
  groupTurns,
  isRefResource,
  resourceBytes,
  type ContentBlock,
  type Resource,
  type ToolCallRequestEvent,
  type ToolCallResponseEvent,
} from '@jp/core';
import type { ProviderRequest } from '../provider.ts';
import { countCharacters } from './count-characters.ts';

/** What echo knows about one resource: enough to prove which snapshot reached the model. */
export interface EchoResource {
  uri: string;
  mimeType: string | undefined;
  bytes: number;
  sha256: string;
}

export type EchoToolResultBlock =
  | { type: 'text'; chars: number }
  | { type: 'resource'; resource: EchoResource }
  | { type: 'question'; id: string };

export interface EchoTurn {
  index: number;
  /** The whole query; `undefined` for a turn without a `chat_request`. */
  query: string | undefined;
  resources: EchoResource[];
  toolCalls: { id: string; name: string; arguments: Record<string, unknown> }[];
  toolResults: { id: string; isError: boolean; content: EchoToolResultBlock[] }[];
}

/** echo's "wire request": a deterministic description of what it was given. */
export interface EchoRequest {
  model: string;
  systemChars: number | undefined;
  tools: string[];
  turns: EchoTurn[];
}

/**
 * A content reference already names the size and digest, so echo never reads stored content; a
 * loaded resource (tests, or a caller that resolved content) is hashed here.
 */
function describeResource(resource: Resource): EchoResource {
  const { uri, mimeType } = resource;
  if (isRefResource(resource)) return { uri, mimeType, bytes: resource.ref.size, sha256: resource.ref.sha256 };
  const bytes = resourceBytes(resource);
  return { uri, mimeType, bytes: bytes.byteLength, sha256: hash('sha256', bytes, 'hex') };
}

function describeBlock(block: ContentBlock): EchoToolResultBlock {
  switch (block.type) {
    case 'text':
      return { type: 'text', chars: countCharacters(block.text) };
    case 'resource':
      return { type: 'resource', resource: describeResource(block.resource) };
    case 'question':
      return { type: 'question', id: block.question.id };
  }
}

export function describeEchoRequest(request: ProviderRequest): EchoRequest {
  const turns = groupTurns(request.events).turns.map((turn): EchoTurn => {
    const calls = turn.events.filter((event): event is ToolCallRequestEvent => event.type === 'tool_call_request');
    const results = turn.events.filter((event): event is ToolCallResponseEvent => event.type === 'tool_call_response');
    return {
      index: turn.index,
      query: turn.request?.content,
      resources: (turn.request?.resources ?? []).map(describeResource),
      toolCalls: calls.map((call) => ({ id: call.id, name: call.name, arguments: call.arguments })),
      toolResults: results.map((result) => ({ id: result.id, isError: result.isError, content: result.content.map(describeBlock) })),
    };
  });
  return {
    model: request.model,
    systemChars: request.system === undefined ? undefined : countCharacters(request.system),
    tools: (request.tools ?? []).map((tool) => tool.name),
    turns,
  };
}
