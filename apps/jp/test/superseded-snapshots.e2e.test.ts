import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeSandbox, readStoredEvents, runJp } from './helpers/run-jp.ts';

// RFD 020, superseded snapshots: what the provider is sent of an older snapshot of a file attached
// again, under each policy and with the clock moved past the prompt cache's lifetime
// (JP_TEST_CLOCK_OFFSET_SECS, the test-only clock of apps/jp/src/clock.ts).

const lastJson = (stdout: string) => JSON.parse(stdout.trim().split('\n').at(-1)!);
const LINES = Array.from({ length: 200 }, (_, i) => `line ${i} of a file that is edited between turns`).join('\n') + '\n';

async function workspace(name: string) {
  const { root, env } = makeSandbox(`jp-superseded-${name}-`);
  const ws = path.join(root, 'project');
  mkdirSync(ws, { recursive: true });
  writeFileSync(path.join(ws, 'big.txt'), LINES);
  const jp = (args: string[], offsetSecs = 0) => runJp(args, { cwd: ws, env: { ...env, JP_TEST_CLOCK_OFFSET_SECS: String(offsetSecs) } });
  expect((await jp(['init'])).code).toBe(0);
  const first = await jp(['-F', 'json', 'query', '--new', '-m', 'echo', '--attach', 'big.txt', 'one']);
  expect(first.code, first.stderr).toBe(0);
  appendFileSync(path.join(ws, 'big.txt'), 'an edit\n');
  const second = await jp(['query', '--attach', 'big.txt', 'two']);
  expect(second.code, second.stderr).toBe(0);
  const uri = `file://${ws}/big.txt`;
  /** The Anthropic request --explain prints for the next turn (nothing is sent or stored). */
  const explain = async (query: string, options: { offset?: number; config?: string[] } = {}) => {
    const args = [...(options.config ?? []).flatMap((c) => ['-c', c]), 'query', '--explain', '-m', 'anthropic/claude-test', query];
    const result = await jp(args, options.offset);
    expect(result.code, result.stderr).toBe(0);
    return JSON.stringify(JSON.parse(result.stdout).request);
  };
  return { ws, jp, id: lastJson(first.stdout).conversation as string, uri, explain };
}

const stubOf = (uri: string, turn: number) => `[superseded: ${uri} — newer content in turn ${turn}]`;
const copiesOf = (request: string, text: string) => request.split(text).length - 1;

describe('superseded snapshots through the binary', () => {
  let ctx: Awaited<ReturnType<typeof workspace>>;
  beforeAll(async () => {
    ctx = await workspace('main');
  });

  it('under omit the older snapshot is a one-line stub; under keep both are sent in full', async () => {
    const omitted = await ctx.explain('three', { config: ['conversation.history.superseded=omit'] });
    expect(omitted).toContain(stubOf(ctx.uri, 1));
    expect(copiesOf(omitted, 'line 57 of a file')).toBe(1);
    const kept = await ctx.explain('three', { config: ['conversation.history.superseded=keep'] });
    expect(kept).not.toContain('[superseded:');
    expect(copiesOf(kept, 'line 57 of a file')).toBe(2);
  });

  it('omit-when-cold: no stub within the cache lifetime, a stub after it', async () => {
    const warm = await ctx.explain('three', { config: ['conversation.history.superseded=omit-when-cold'] });
    expect(warm).not.toContain('[superseded:');
    const cold = await ctx.explain('three', { offset: 301, config: ['conversation.history.superseded=omit-when-cold'] });
    expect(cold).toContain(stubOf(ctx.uri, 1));
    // cache_ttl_secs overrides the provider's lifetime.
    const longer = await ctx.explain('three', { offset: 301, config: ['conversation.history.cache_ttl_secs=3600'] });
    expect(longer).not.toContain('[superseded:');
  });

  it('omit-when-cheaper: stubs while warm only when the stale copy outweighs the history that would be rewritten', async () => {
    const cheaper = ['-c', 'conversation.history.superseded=omit-when-cheaper'];
    // In ctx the newer copy (turn 1) lies after the stale one: stubbing would rewrite more than it saves.
    expect(await ctx.explain('three', { config: ['conversation.history.superseded=omit-when-cheaper'] })).not.toContain('[superseded:');
    // Re-attached right after turn 0, only a short answer follows the stale copy: stubbed while warm.
    const { root, env } = makeSandbox('jp-superseded-cheaper-');
    const ws = path.join(root, 'project');
    mkdirSync(ws, { recursive: true });
    writeFileSync(path.join(ws, 'big.txt'), LINES);
    const jp = (args: string[]) => runJp(args, { cwd: ws, env });
    expect((await jp(['init'])).code).toBe(0);
    expect((await jp(['query', '--new', '-m', 'echo', '--attach', 'big.txt', 'one'])).code).toBe(0);
    appendFileSync(path.join(ws, 'big.txt'), 'an edit\n');
    const explain = async (config: string[]) => {
      const result = await jp([...config, 'query', '--explain', '-m', 'anthropic/claude-test', '--attach', 'big.txt', 'two']);
      expect(result.code, result.stderr).toBe(0);
      return JSON.stringify(JSON.parse(result.stdout).request);
    };
    const warm = await explain(cheaper);
    expect(warm).toContain(stubOf(`file://${ws}/big.txt`, 1));
    expect(copiesOf(warm, 'line 57 of a file')).toBe(1);
    expect(await explain(['-c', 'conversation.history.superseded=omit-when-cold'])).not.toContain('[superseded:');
  });
});

describe('a stub, once sent, stays', () => {
  it('is recorded in the stream and sent by every later request, warm ones included; warm requests keep the prefix', async () => {
    const ctx = await workspace('stays');
    // The default policy is omit-when-cold: a query after an idle gap stubs and records it.
    const cold = await ctx.jp(['query', 'three'], 400);
    expect(cold.code, cold.stderr).toBe(0);
    const requests = readStoredEvents(ctx.ws, ctx.id).filter((event) => event.type === 'chat_request');
    expect(requests.map((request) => request.superseded)).toEqual([undefined, undefined, [{ turn: 0, uri: ctx.uri }]]);
    // The file on disk keeps both snapshots: history is never changed.
    expect(requests[0]!.resources[0].$blob).not.toBe(requests[1]!.resources[0].$blob);

    // The next request is warm (same offset: seconds after the last); the stub stays.
    const next = await ctx.explain('four', { offset: 400 });
    expect(next).toContain(stubOf(ctx.uri, 1));
    expect(copiesOf(next, 'line 57 of a file')).toBe(1);

    // Prefix stability across warm requests: request k's messages begin request k+1's.
    const strip = (request: string) => (JSON.parse(request, (key, value) => (key === 'cache_control' ? undefined : value)) as { messages: unknown[] }).messages.map((m) => JSON.stringify(m));
    const before = strip(next);
    expect((await ctx.jp(['query', 'four'], 400)).code).toBe(0);
    const after = strip(await ctx.explain('five', { offset: 400 }));
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.length).toBe(before.length + 2);
  });
});

describe('a refresh result supersedes the attachment', () => {
  it('the attached snapshot becomes a stub once refresh_resource returned newer content, and the refresh result is sent whole', async () => {
    const ctx = await workspace('refresh');
    appendFileSync(path.join(ctx.ws, 'big.txt'), 'a second edit\n');
    const refreshed = await ctx.jp(['query', `!tool refresh_resource ${JSON.stringify({ uri: ctx.uri })}`]);
    expect(refreshed.code, refreshed.stderr).toBe(0);
    // Turn 0 (attached) and turn 1 (re-attached) are both older than turn 2's refresh result.
    const request = await ctx.explain('four', { config: ['conversation.history.superseded=omit'] });
    expect(request).toContain(stubOf(ctx.uri, 1));
    expect(request).toContain(stubOf(ctx.uri, 2));
    expect(copiesOf(request, 'a second edit')).toBe(1);
  });
});
