import type { EchoRequest, EchoResource, EchoToolResultBlock, EchoTurn } from './describe-echo-request.ts';

/*
 * The echo model's answer, one fact per line (scripts grep it; keep it stable):
 *
 *   echo: <N> turn|turns
 *   system: <n> chars                                    only when a system prompt was given
 *   tools: <name>, <name>, …                             only when tools were offered
 *   turn <i>: "<first line of the query, JSON-quoted>"   + " (+<k> more lines)" when it has more
 *   turn <i>: (no request)                               a turn without a chat_request
 *     resource <uri> <mimeType|-> <bytes> bytes sha256:<64 hex>     one per resource of that turn
 *     tool_call <id> <name> <arguments as compact JSON>
 *     tool_result <id> ok|error
 *       resource <uri> <mimeType|-> <bytes> bytes sha256:<64 hex>   a resource block of the result
 *       text <n> chars | question <id>                              the result's other blocks
 *
 * Lines are joined by "\n" with no trailing newline. Sizes count the raw content (UTF-8 bytes of
 * text, or blob bytes; never `formatted`) and sha256 is over the same bytes, so they match
 * `sha256sum` of the attached file. The URI is printed as is (a `cmd:` URI may contain spaces);
 * whitespace inside a MIME type is removed so the last three fields always parse from the right:
 *   /^\s+resource (.+) (\S+) (\d+) bytes sha256:([0-9a-f]{64})$/
 */

function resourceLine(resource: EchoResource): string {
  const mimeType = resource.mimeType === undefined || resource.mimeType === '' ? '-' : resource.mimeType.replace(/\s+/g, '');
  return `resource ${resource.uri} ${mimeType} ${resource.bytes} bytes sha256:${resource.sha256}`;
}

function blockLine(block: EchoToolResultBlock): string {
  switch (block.type) {
    case 'text':
      return `text ${block.chars} chars`;
    case 'resource':
      return resourceLine(block.resource);
    case 'question':
      return `question ${block.id}`;
  }
}

function queryLine(turn: EchoTurn): string {
  if (turn.query === undefined) return `turn ${turn.index}: (no request)`;
  const [first = '', ...rest] = turn.query.split(/\r?\n/);
  const more = rest.length > 0 ? ` (+${rest.length} more line${rest.length === 1 ? '' : 's'})` : '';
  return `turn ${turn.index}: ${JSON.stringify(first)}${more}`;
}

function turnLines(turn: EchoTurn): string[] {
  const lines = [queryLine(turn), ...turn.resources.map((resource) => `  ${resourceLine(resource)}`)];
  // Calls and results in call order; a result without its call (should not happen) comes last.
  const results = new Map(turn.toolResults.map((result) => [result.id, result]));
  const resultLines = (id: string): string[] => {
    const result = results.get(id);
    if (result === undefined) return [];
    results.delete(id);
    return [`  tool_result ${id} ${result.isError ? 'error' : 'ok'}`, ...result.content.map((block) => `    ${blockLine(block)}`)];
  };
  for (const call of turn.toolCalls) {
    lines.push(`  tool_call ${call.id} ${call.name} ${JSON.stringify(call.arguments)}`, ...resultLines(call.id));
  }
  for (const id of [...results.keys()]) lines.push(...resultLines(id));
  return lines;
}

/** The answer's lines (none holds a newline): the echo provider streams them, joined by "\n". */
export function renderEchoLines(request: EchoRequest): string[] {
  const count = request.turns.length;
  const lines = [`echo: ${count} ${count === 1 ? 'turn' : 'turns'}`];
  if (request.systemChars !== undefined) lines.push(`system: ${request.systemChars} chars`);
  if (request.tools.length > 0) lines.push(`tools: ${request.tools.join(', ')}`);
  for (const turn of request.turns) lines.push(...turnLines(turn));
  return lines;
}
