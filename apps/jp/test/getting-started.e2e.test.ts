import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicTextStream, createWireServer, type WireServer } from '@jp/test-server';
import { makeSandbox, readEvents, runJp } from './helpers/run-jp.ts';

// The first minutes with jp (issue N, section 3), through the built binary.
describe('getting started and carrying on', { timeout: 60_000 }, () => {
  const { root, env } = makeSandbox('jp-start-');
  const ws = path.join(root, 'project');
  let server: WireServer;
  const jp = (args: string[], extra: NodeJS.ProcessEnv = {}) => runJp(args, { cwd: ws, env: { ...env, ...extra } });
  const lastLine = (text: string) => JSON.parse(text.trim().split('\n').at(-1)!);

  beforeAll(async () => {
    server = await createWireServer();
    mkdirSync(ws, { recursive: true });
    writeFileSync(path.join(ws, 'a.txt'), 'alpha\n');
    expect((await jp(['init', '--no-gitignore'])).code).toBe(0);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  it('a first query with no active conversation starts one and says so in one line', async () => {
    const first = await jp(['query', '-m', 'echo', 'hello']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr.split('\n')[0]).toBe('jp: no active conversation: starting a new one with echo');
    const id = /new conversation (\S+)/.exec(first.stderr)![1]!;
    const second = await jp(['-F', 'json', 'query', 'again']);
    expect(second.code, second.stderr).toBe(0);
    expect(lastLine(second.stdout)).toMatchObject({ conversation: id, turn: 1 });
    expect(second.stderr).not.toContain('starting a new one');
  });

  it('removing the active conversation clears the pointer, and the next query starts a new one', async () => {
    const made = await jp(['-F', 'json', 'query', '-n', '-m', 'echo', 'to remove']);
    const id = lastLine(made.stdout).conversation;
    const rm = await jp(['conversation', 'rm', id, '--yes']);
    expect(rm.code, rm.stderr).toBe(0);
    expect(rm.stderr).toContain(`deleted ${id}; no conversation is active now`);
    const next = await jp(['-F', 'json', 'query', '-m', 'echo', 'after']);
    expect(next.code, next.stderr).toBe(0);
    expect(lastLine(next.stdout).conversation).not.toBe(id);
    expect(lastLine(next.stdout).turn).toBe(0);
  });

  it('with no model configured and one provider key, that provider\'s default model is used, named, and recorded as the turn\'s', async () => {
    server.enqueue(anthropicTextStream('hi'));
    const only = { ANTHROPIC_API_KEY: 'sk-test' };
    const result = await jp(['-F', 'json', '-c', `providers.anthropic.base_url=${JSON.stringify(server.url)}`, 'query', '-n', 'which model?'], only);
    expect(result.code, result.stderr).toBe(0);
    expect((server.requests.at(-1)!.body as { model: string }).model).toBe('claude-sonnet-4-5');
    const id = lastLine(result.stdout).conversation;
    // The turn's model, not a key the conversation set: a later assistant.model reaches it (RFD 014).
    expect(readEvents(ws, id).find((event) => event.type === 'config_delta')).toBeUndefined();
    expect(readEvents(ws, id).find((event) => event.type === 'turn_start')!.model).toMatch(/^anthropic\//);
    const text = await jp(['-c', `providers.anthropic.base_url=${JSON.stringify(server.url)}`, 'query', '--explain', '-n', 'x'], only);
    expect(text.stderr).toContain('jp: using anthropic/claude-sonnet-4-5 (no model configured; ANTHROPIC_API_KEY is the only provider key set)');
  });

  it('with none or several keys the error stays, naming the choices', async () => {
    const none = await jp(['query', '-n', 'x']);
    expect(none.code).toBe(2);
    expect(none.stderr.trim()).toMatch(/^jp: no model configured and no provider key set: pass -m\/--model .* export one of ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY, OPENROUTER_API_KEY$/);
    const two = await jp(['query', '-n', 'x'], { ANTHROPIC_API_KEY: 'a', GEMINI_API_KEY: 'g' });
    expect(two.code).toBe(2);
    expect(two.stderr.trim()).toMatch(/^jp: no model configured and keys for several providers are set \(ANTHROPIC_API_KEY, GEMINI_API_KEY\): .*e\.g\. -m anthropic\/claude-sonnet-4-5$/);
  });

  it('--title on an existing conversation renames it', async () => {
    const made = await jp(['-F', 'json', 'query', '-n', '-m', 'echo', '--title', 'first name', 'x']);
    const id = lastLine(made.stdout).conversation;
    expect((await jp(['query', '--id', id, '--title', 'second name', 'y'])).code).toBe(0);
    const ls = await jp(['-F', 'json', 'conversation', 'ls']);
    const entry = (JSON.parse(ls.stdout) as { conversations: Array<{ id: string; title?: string }> }).conversations.find((row) => row.id === id);
    expect(entry?.title).toBe('second name');
  });

  it('fork says how to continue in the fork; with --activate it says the fork is active', async () => {
    const made = await jp(['-F', 'json', 'query', '-n', '-m', 'echo', 'x']);
    const id = lastLine(made.stdout).conversation;
    const fork = await jp(['conversation', 'fork', id]);
    expect(fork.code, fork.stderr).toBe(0);
    const forkId = fork.stdout.trim();
    expect(fork.stderr.trim()).toBe(`continue in the fork with: jp q --id ${forkId} "…" (or make it active: jp c use ${forkId})`);
    const active = await jp(['conversation', 'fork', id, '--activate']);
    expect(active.stderr.trim()).toBe(`the fork ${active.stdout.trim()} is now the active conversation`);
  });
});
