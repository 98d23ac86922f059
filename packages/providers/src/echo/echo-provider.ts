import type { ConvertedRequest, Provider, ProviderRequest, StreamEvent } from '../provider.ts';
import { countCharacters } from './count-characters.ts';
import { describeEchoRequest, type EchoRequest } from './describe-echo-request.ts';
import { nextEchoToolDirective } from './echo-tool-directive.ts';
import { renderEchoLines } from './render-echo-text.ts';

/*
 * `echo`: the offline model. It answers with a deterministic description of the request it
 * received (format: render-echo-text.ts), streamed one line per delta (runs of up to 64 lines in
 * a long answer), so scripts, demos and
 * end-to-end tests run without a key or network. Usage counts characters, not tokens:
 * input = query characters + resource bytes of every turn, output = characters of the answer.
 * A `!tool <name> <json>` line in the newest query makes it call that tool first
 * (echo-tool-directive.ts). With a schema (structured output) the answer is the description as
 * one JSON document, `{"model", "systemChars", "tools", "turns": [...]}`, so `--schema` can be
 * tried offline.
 */

function inputSize(request: EchoRequest): number {
  let size = 0;
  for (const turn of request.turns) {
    size += countCharacters(turn.query ?? '');
    for (const resource of turn.resources) size += resource.bytes;
  }
  return size;
}

/** Lines per delta at most: a description of thousands of resources streams in runs, not line by line. */
const LINES_PER_DELTA = 64;

/**
 * The answer's lines as deltas of whole lines (each but the last ending in its newline): one line
 * each, or runs of `LINES_PER_DELTA` lines for an answer longer than that.
 */
function lineDeltas(lines: readonly string[]): string[] {
  const per = lines.length > LINES_PER_DELTA ? LINES_PER_DELTA : 1;
  const deltas: string[] = [];
  for (let start = 0; start < lines.length; start += per) {
    const run = lines.slice(start, start + per).join('\n');
    deltas.push(start + per < lines.length ? `${run}\n` : run);
  }
  return deltas;
}

export function createEchoProvider(): Provider {
  return {
    id: 'echo',
    readsContent: false,
    buildRequest(request: ProviderRequest): ConvertedRequest<EchoRequest> {
      return { request: describeEchoRequest(request), warnings: [] };
    },
    async *stream(request: ProviderRequest, options: { signal?: AbortSignal } = {}): AsyncIterable<StreamEvent> {
      options.signal?.throwIfAborted();
      const description = describeEchoRequest(request);
      const directive = nextEchoToolDirective(request.events);
      if (directive !== undefined) {
        yield { type: 'tool-call', id: directive.id, name: directive.name, arguments: directive.arguments };
        yield { type: 'finish', reason: 'tool-calls', usage: { inputTokens: inputSize(description), outputTokens: 0 } };
        return;
      }
      // Streamed from the lines as rendered: a long answer is never joined only to be split again.
      const lines = request.schema === undefined ? renderEchoLines(description) : [JSON.stringify(description)];
      let characters = 0;
      for (const delta of lineDeltas(lines)) {
        options.signal?.throwIfAborted();
        characters += countCharacters(delta);
        yield { type: 'text-delta', text: delta };
      }
      yield { type: 'finish', reason: 'stop', usage: { inputTokens: inputSize(description), outputTokens: characters } };
    },
  };
}
