import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandaloneServer, type WireServer } from '@jp/test-server';
import { expectOneLineError, makeSandbox, readStoredEvents, runJp, turnsOf } from './helpers/run-jp.ts';

// Issue W, settings: a -c is for one command and is never stored; --model, --reasoning and
// --tool/--no-tool are recorded with their turn; jp config get/set/unset on the workspace file, the
// user's file and a conversation; a typo gets the nearest key; a model id with dots is a quoted key;
// the quick-start model is the turn's, so a later assistant.model reaches the conversation.

const { root, home, env: sandboxEnv } = makeSandbox('jp-settings-e2e-');
const ws = path.join(root, 'project');
const jpDir = path.join(ws, '.jp');
const userFile = path.join(home, '.config', 'jp', 'config.toml');
const jp = (args: string[], env: NodeJS.ProcessEnv = sandboxEnv) => runJp(args, { cwd: ws, env, timeoutMs: 60_000 });
const idOf = (stdout: string): string => JSON.parse(stdout.trim().split('\n').at(-1)!).conversation;
const eventsFile = (id: string) => path.join(jpDir, 'conversations', id, 'events.jsonl');
/** A stored line with what differs between any two runs (times, turn ids) blanked. */
const normalised = (line: Record<string, any>) => JSON.stringify({ ...line, timestamp: 'T', ...('id' in line ? { id: 'I' } : {}), ...('parent' in line ? { parent: 'P' } : {}) });

let server: WireServer;

beforeAll(async () => {
  server = await startStandaloneServer();
  mkdirSync(ws, { recursive: true });
  expect((await jp(['init'])).code).toBe(0);
  writeFileSync(path.join(jpDir, 'config.toml'), '[assistant]\nmodel = "echo"\n\n[tools.t]\ncommand = "true"\ndescription = "does nothing"\n');
});

afterAll(async () => {
  await server?.close();
});

describe('-c is for one command, never stored', { timeout: 60_000 }, () => {
  it('a turn asked with -c stores the same lines as one asked without it, and the next turn does not see it', async () => {
    const plain = await jp(['-F', 'json', 'query', '--new', 'same question']);
    expect(plain.code, plain.stderr).toBe(0);
    const withC = await jp(['-F', 'json', '-c', 'conversation.compaction.auto=on', '-c', 'providers.echo.models.echo.context_window=400', 'query', '--new', 'same question']);
    expect(withC.code, withC.stderr).toBe(0);
    const [a, b] = [idOf(plain.stdout), idOf(withC.stdout)];
    expect(readStoredEvents(ws, b).map(normalised)).toEqual(readStoredEvents(ws, a).map(normalised));
    expect(readStoredEvents(ws, b).some((event) => event.type === 'config_delta')).toBe(false);

    const before = readFileSync(eventsFile(b));
    // Commands that only read leave the file as it was, -c or not.
    for (const args of [['conversation', 'show', b], ['config', 'show', '--id', b], ['conversation', 'compact', b, '--dry-run']]) {
      const result = await jp(['-c', 'conversation.compaction.auto=on', ...args]);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
      expect(readFileSync(eventsFile(b)).equals(before)).toBe(true);
    }
    const shown = JSON.parse((await jp(['-F', 'json', 'config', 'show', '--id', b])).stdout);
    expect(shown.config.conversation.compaction.auto).toBe('ask');
    expect(shown.sources['conversation.compaction.auto']).toBe('default');
    expect(shown.config.providers).toEqual({});
  });

  it('--model and --reasoning carry on for the conversation; --tool/--no-tool and the model are recorded with their turn', async () => {
    const first = await jp(['-F', 'json', 'query', '--new', '-m', 'echo', '--reasoning', 'low', '--no-tool', 't', 'x']);
    expect(first.code, first.stderr).toBe(0);
    const id = idOf(first.stdout);
    expect((await jp(['query', '--id', id, '--tool', 't', 'y'])).code).toBe(0);
    const [one, two] = turnsOf(readStoredEvents(ws, id));
    expect(one![0]).toMatchObject({ type: 'turn_start', model: 'echo', tools: { without: ['t'] } });
    expect(one!.filter((event) => event.type === 'config_delta').map((event) => event.delta)).toEqual([{ assistant: { model: 'echo', reasoning: 'low' } }]);
    expect(two![0]).toMatchObject({ type: 'turn_start', model: 'echo', tools: { only: ['t'] } });
    expect(two!.some((event) => event.type === 'config_delta')).toBe(false);
    const shown = JSON.parse((await jp(['-F', 'json', 'config', 'show', '--id', id])).stdout);
    expect(shown.sources['assistant.reasoning']).toBe('conversation');
  });
});

describe('jp config get, set and unset', { timeout: 60_000 }, () => {
  it('on the workspace file: get prints one value, unset takes the line out and the default shows again', async () => {
    expect((await jp(['config', 'set', 'conversation.lock_timeout_secs', '3'])).code).toBe(0);
    const got = await jp(['config', 'get', 'conversation.lock_timeout_secs']);
    expect(got).toMatchObject({ code: 0, stdout: '3\n' });
    expect((await jp(['config', 'get', 'assistant.model'])).stdout).toBe('echo\n');
    const json = JSON.parse((await jp(['-F', 'json', 'config', 'get', 'conversation.lock_timeout_secs'])).stdout);
    expect(json).toEqual({ key: 'conversation.lock_timeout_secs', value: 3, source: 'workspace' });
    const unset = await jp(['config', 'unset', 'conversation.lock_timeout_secs']);
    expect(unset.code, unset.stderr).toBe(0);
    expect(readFileSync(path.join(jpDir, 'config.toml'), 'utf8')).not.toContain('lock_timeout_secs');
    expect((await jp(['config', 'get', 'conversation.lock_timeout_secs'])).stdout).toBe('10\n');
    const again = await jp(['config', 'unset', 'conversation.lock_timeout_secs']);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('nothing to unset: .jp/config.toml does not set conversation.lock_timeout_secs');
    expectOneLineError(await jp(['config', 'get', 'assistant.max_tokens']), 1, /^jp: assistant\.max_tokens is not set and has no default$/);
  });

  it('on the user file, under the workspace file', async () => {
    expect((await jp(['config', 'set', '--user', 'assistant.max_tokens', '321'])).code).toBe(0);
    expect(readFileSync(userFile, 'utf8')).toContain('max_tokens = 321');
    expect(JSON.parse((await jp(['-F', 'json', 'config', 'get', 'assistant.max_tokens'])).stdout)).toMatchObject({ value: 321, source: 'user' });
    expect((await jp(['config', 'unset', '--user', 'assistant.max_tokens'])).code).toBe(0);
    expect(readFileSync(userFile, 'utf8')).not.toContain('max_tokens');
  });

  it('on a conversation: set --id pins a key over the files, unset --id lets it follow them again', async () => {
    const made = await jp(['-F', 'json', 'query', '--new', 'x']);
    const id = idOf(made.stdout);
    const set = await jp(['config', 'set', '--id', id, 'assistant.max_tool_rounds', '7']);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stderr).toContain(`set assistant.max_tool_rounds in conversation ${id}`);
    expect((await jp(['config', 'get', '--id', id, 'assistant.max_tool_rounds'])).stdout).toBe('7\n');
    expect((await jp(['config', 'get', 'assistant.max_tool_rounds'])).stdout).toBe('25\n');
    expect((await jp(['config', 'set', 'assistant.max_tool_rounds', '9'])).code).toBe(0);
    expect((await jp(['config', 'get', '--id', id, 'assistant.max_tool_rounds'])).stdout).toBe('7\n');
    const unset = await jp(['config', 'unset', '--id', id, 'assistant.max_tool_rounds']);
    expect(unset.code, unset.stderr).toBe(0);
    expect((await jp(['config', 'get', '--id', id, 'assistant.max_tool_rounds'])).stdout).toBe('9\n');
    const deltas = readStoredEvents(ws, id).filter((event) => event.type === 'config_delta');
    expect(deltas.map(({ delta, removed }) => ({ delta, removed }))).toEqual([
      { delta: { assistant: { max_tool_rounds: 7 } }, removed: undefined },
      { delta: {}, removed: [['assistant', 'max_tool_rounds']] },
    ]);
    expect((await jp(['conversation', 'show', id])).stdout).toContain('config unset: assistant.max_tool_rounds');
    // What the conversation never set: nothing stored, said so.
    const lines = readFileSync(eventsFile(id));
    const never = await jp(['config', 'unset', '--id', id, 'assistant.max_tokens']);
    expect(never.stderr).toContain(`nothing to unset: conversation ${id} does not set assistant.max_tokens`);
    expect(readFileSync(eventsFile(id)).equals(lines)).toBe(true);
    expectOneLineError(await jp(['config', 'set', '--id', id, 'mcp.x.env.TOKEN', 'abc']), 2, /mcp\.x\.env\.TOKEN is a secret and a conversation is stored under \.jp\//);
    expectOneLineError(await jp(['config', 'set', '--id', id, '--user', 'assistant.model', 'echo']), 2, /--user and --id exclude each other/);
  });

  it('a typo gets the nearest key, from -c, config set, config get and the files', async () => {
    expectOneLineError(await jp(['-c', 'assistant.modle=echo', 'query', 'x']), 2, /unknown key assistant\.modle \(did you mean assistant\.model\?\)$/);
    expectOneLineError(await jp(['config', 'set', 'conversation.compaction.atuo', 'on']), 2, /\(did you mean conversation\.compaction\.auto\?\)$/);
    expectOneLineError(await jp(['config', 'get', 'asistant.model']), 2, /^jp: unknown key asistant\.model \(did you mean assistant\.model\?\)$/);
    writeFileSync(userFile, '[mcp.gh]\ncomand = "gh"\n');
    expectOneLineError(await jp(['config', 'show']), 2, /unknown key mcp\.gh\.comand \(did you mean mcp\.gh\.command\?\)$/);
    writeFileSync(userFile, '');
  });

  it('a model id with dots is a quoted key: set, get, -c and unset', async () => {
    const key = 'providers.openai.models."gpt-4.1".context_window';
    const set = await jp(['config', 'set', key, '400']);
    expect(set.code, set.stderr).toBe(0);
    expect(readFileSync(path.join(jpDir, 'config.toml'), 'utf8')).toContain('models."gpt-4.1".context_window = 400');
    expect((await jp(['config', 'get', key])).stdout).toBe('400\n');
    expect((await jp(['-c', `${key}=500`, 'config', 'get', key])).stdout).toBe('500\n');
    expect((await jp(['config', 'get', 'providers.openai.models."gpt-4.1"'])).stdout).toBe('context_window = 400\n');
    expect((await jp(['config', 'unset', key])).code).toBe(0);
    expect(readFileSync(path.join(jpDir, 'config.toml'), 'utf8')).not.toContain('gpt-4.1');
  });
});

describe("the quick-start model is the turn's, not the conversation's", { timeout: 60_000 }, () => {
  it('a later assistant.model in the files reaches a conversation jp picked the model for', async () => {
    const { root: qsRoot, env: qsEnv } = makeSandbox('jp-quick-start-');
    const project = path.join(qsRoot, 'project');
    mkdirSync(project);
    const env = { ...qsEnv, ANTHROPIC_API_KEY: 'sk-test' };
    const run = (args: string[]) => runJp(args, { cwd: project, env });
    expect((await run(['init'])).code).toBe(0);
    expect((await run(['config', 'set', 'providers.anthropic.base_url', server.url])).code).toBe(0);
    const first = await run(['query', 'hello']);
    expect(first.code, first.stderr).toBe(0);
    const picked = /(anthropic\/\S+) \(no model configured; ANTHROPIC_API_KEY is the only provider key set\)/.exec(first.stderr)?.[1];
    expect(picked, first.stderr).toBeDefined();
    const [id] = readdirSync(path.join(project, '.jp', 'conversations'));
    const second = await run(['query', 'again']);
    expect(second.code, second.stderr).toBe(0);
    // Said when the pick starts the conversation, not at every turn.
    expect(second.stderr).not.toContain('no model configured');
    const events = readStoredEvents(project, id!);
    expect(events.filter((event) => event.type === 'turn_start').map((event) => event.model)).toEqual([picked, picked]);
    expect(events.some((event) => event.type === 'config_delta')).toBe(false);
    expect((await run(['config', 'set', 'assistant.model', 'echo'])).code).toBe(0);
    const third = await run(['query', 'now?']);
    expect(third.code, third.stderr).toBe(0);
    expect(third.stdout).toMatch(/^echo: 3 turns/);
    expect(turnsOf(readStoredEvents(project, id!))[2]![0]).toMatchObject({ model: 'echo' });
  });
});
