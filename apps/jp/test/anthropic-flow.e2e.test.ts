import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandaloneServer, type WireServer } from '@jp/test-server';
import { makeSandbox, runJp } from './helpers/run-jp.ts';

type Message = { role: string; content: Array<Record<string, any>> };

function stripCacheControl<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (key, v) => (key === 'cache_control' ? undefined : v)));
}

// The walking skeleton against Anthropic's wire format: the real SDK inside the binary talks to a
// local server on 127.0.0.1 that records every request body.
describe('a conversation on anthropic, through the binary and a local wire server', () => {
  const { root, env } = makeSandbox();
  const ws = path.join(root, 'project');
  let server: WireServer;
  let bodies: Array<{ messages: Message[]; model: string }> = [];
  const jp = (args: string[]) =>
    runJp(['-c', `providers.anthropic.base_url=${JSON.stringify(server.url)}`, ...args], {
      cwd: ws,
      env: { ...env, ANTHROPIC_API_KEY: 'sk-test-key' },
    });

  beforeAll(async () => {
    server = await startStandaloneServer();
    mkdirSync(ws, { recursive: true });
    writeFileSync(path.join(ws, 'a.txt'), 'alpha file\n');
    writeFileSync(path.join(ws, 'b.txt'), 'bravo file\n');
    expect((await runJp(['init'], { cwd: ws, env })).code).toBe(0);

    const steps = [
      ['query', '--new', '-m', 'anthropic/claude-test', '--attach', 'a.txt', 'What is in a.txt?'],
      ['query', 'And now?'],
      ['query', '--attach', 'b.txt', 'Compare with b'],
    ];
    for (const [i, step] of steps.entries()) {
      const result = await jp(step);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe(`ok ${i + 1}\n`);
    }
    bodies = server.requests.map((request) => request.body as { messages: Message[]; model: string });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('sends three requests with the model and the key', () => {
    expect(bodies).toHaveLength(3);
    expect(bodies.every((body) => body.model === 'claude-test')).toBe(true);
    const auth = server.requests[0]!.headers;
    expect(`${auth['x-api-key'] ?? ''}${auth.authorization ?? ''}`).toContain('sk-test-key');
  });

  it("puts a.txt's document in the first user message and b.txt's in the third, nowhere else", () => {
    const third = stripCacheControl(bodies[2]!.messages);
    expect(third.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    const documents = third.map((m) => m.content.filter((block) => block.type === 'document').map((block) => block.title));
    expect(documents).toEqual([['a.txt'], [], [], [], ['b.txt']]);
    expect(third[0]!.content).toEqual([
      { type: 'text', text: 'What is in a.txt?' },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'alpha file\n' }, title: 'a.txt', context: `uri: ${pathToFileURL(realpathSync(path.join(ws, 'a.txt'))).href}` },
    ]);
    expect(third[1]!.content).toEqual([{ type: 'text', text: 'ok 1' }]);
  });

  it("request 3 begins with request 2's messages unchanged (cache markers aside)", () => {
    const second = stripCacheControl(bodies[1]!.messages);
    const third = stripCacheControl(bodies[2]!.messages);
    expect(third.slice(0, second.length).map((m) => JSON.stringify(m))).toEqual(second.map((m) => JSON.stringify(m)));
    const first = stripCacheControl(bodies[0]!.messages);
    expect(second.slice(0, first.length)).toEqual(first);
  });

  it('marks cache breakpoints at real positions', () => {
    const markers = JSON.stringify(bodies[2]).match(/cache_control/g) ?? [];
    expect(markers.length).toBeGreaterThan(0);
    expect(markers.length).toBeLessThanOrEqual(4);
    const last = bodies[2]!.messages.at(-1)!;
    expect(last.content.at(-1)).toHaveProperty('cache_control');
  });
});
