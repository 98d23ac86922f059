import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConversationEvent } from '@jp/core';
import { createEchoProvider } from '@jp/providers';
import { resolveConfig } from '../config/load-config.ts';
import { Output } from '../output/output.ts';
import { createAttachmentRegistry, handlerContext } from '../resolution/attachment-runtime.ts';
import { refreshResourceTool } from '../tools/refresh-resource-tool.ts';
import type { JpTool } from '../tools/jp-tool.ts';
import { DEFAULT_RETRY_POLICY } from './retry-policy.ts';
import { runTurnLoop, ToolRoundsExceeded } from './turn-loop.ts';

const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'jp-loop-')));
const file = path.join(root, 'a.txt');
const uri = pathToFileURL(file).href;
const output = new Output({ format: 'text', quiet: true, color: false });
const registry = createAttachmentRegistry();
const hctx = handlerContext({ root, jpDir: path.join(root, '.jp') }, root, resolveConfig([]), output);
const t = '2026-01-01T00:00:00.000Z';

const history: ConversationEvent[] = [
  { type: 'turn_start', timestamp: t },
  { type: 'chat_request', timestamp: t, content: 'look', resources: [{ uri, name: 'a.txt', mimeType: 'text/plain', text: 'one\n' }] },
  { type: 'chat_response', timestamp: t, message: 'seen' },
];

const confirmNeeded: JpTool = {
  definition: { name: 'dangerous', description: 'needs a yes', parameters: { type: 'object' } },
  run: 'ask',
  call: async () => ({ content: [{ type: 'text', text: 'ran' }], isError: false }),
};

function loop(query: string, events: readonly ConversationEvent[] = history, maxRounds = 25) {
  return runTurnLoop({
    provider: createEchoProvider(),
    request: { model: 'echo' },
    events: [...events, { type: 'turn_start', timestamp: t }, { type: 'chat_request', timestamp: t, content: query, resources: [] }],
    tools: [refreshResourceTool, confirmNeeded],
    toolContext: { workspaceRoot: root, declarations: ['a.txt'], mcpServerOfTool: () => undefined, registry, handlerContext: hctx, output, interactive: false, allowTools: false, prompt: (fn) => fn() },
    output,
    retry: DEFAULT_RETRY_POLICY,
    maxRounds,
  });
}

function responses(events: ConversationEvent[]) {
  return events.filter((event) => event.type === 'tool_call_response') as Array<Extract<ConversationEvent, { type: 'tool_call_response'; content: unknown }>>;
}

describe('the turn loop with refresh_resource', () => {
  beforeEach(() => {
    writeFileSync(file, 'one\n');
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  });

  it('a file changed on disk comes back as a resource block with the new content', async () => {
    writeFileSync(file, 'two\n');
    const result = await loop(`check\n!tool refresh_resource {"uri":"${uri}"}`);
    const [response] = responses(result.events);
    expect(response).toMatchObject({ id: 'echo_1_0', isError: false, content: [{ type: 'resource', resource: { uri, text: 'two\n', name: 'a.txt' } }] });
    expect(result.events.map((event) => event.type)).toEqual(['tool_call_request', 'tool_call_response', 'chat_response']);
    expect(result.text).toContain('echo:');
  });

  it('unchanged content gives a short reference naming the turn and checksum', async () => {
    const result = await loop(`!tool refresh_resource {"uri":"${uri}"}`);
    const [response] = responses(result.events);
    expect(response!.content).toEqual([
      { type: 'text', text: `${uri} is unchanged since the snapshot attached in turn 0 (sha256 ${'2c8b08da5ce60398e1f19af0e5dccc744df274b826abe585eaba68c525434806'}).` },
    ]);
  });

  it('refreshing a URI not in the conversation is a tool error and reads nothing', async () => {
    const result = await loop('!tool refresh_resource {"uri":"file:///etc/passwd"}');
    expect(responses(result.events)[0]).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringMatching(/not a resource in this conversation/) }] });
    expect(JSON.stringify(result.events)).not.toContain('root:');
  });

  it('refreshing an external: URI is a tool error', async () => {
    const result = await loop('!tool refresh_resource {"uri":"external:abcd/report.pdf"}');
    expect(responses(result.events)[0]).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/cannot be refreshed/) }] });
  });

  it('an unknown tool and an unconfirmed "ask" tool are error results; the turn goes on', async () => {
    const result = await loop('!tool nosuch {}\n!tool dangerous {}');
    const [unknown, refused] = responses(result.events);
    expect(unknown).toMatchObject({ isError: true, content: [{ text: 'unknown tool nosuch; available: refresh_resource, dangerous' }] });
    expect(refused).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/needs confirmation.*--allow-tools/) }] });
    expect(result.events.at(-1)).toMatchObject({ type: 'chat_response' });
  });

  it('arguments that violate the tool schema are an error result the model can read', async () => {
    const result = await loop('!tool refresh_resource {"url":"x"}');
    expect(responses(result.events)[0]).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/^invalid arguments for refresh_resource: arguments must have required property 'uri'/) }],
    });
  });

  it('stops a model that keeps calling tools after max rounds, keeping what happened', async () => {
    const error = await loop(`!tool refresh_resource {"uri":"${uri}"}\n!tool refresh_resource {"uri":"${uri}"}\n!tool refresh_resource {"uri":"${uri}"}`, history, 2).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolRoundsExceeded);
    expect((error as ToolRoundsExceeded).exitCode).toBe(1);
    expect(responses((error as ToolRoundsExceeded).events)).toHaveLength(2);
  });
});
