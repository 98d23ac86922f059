import type { ConfigDeltaEvent, ConversationEvent } from '@jp/core';
import { describe, expect, it } from 'vitest';
import { configSources } from '../config/config-sources.ts';
import { readCfgArgs, resolveConfig, type ConfigFiles } from '../config/load-config.ts';
import type { ConfigLayer } from '../config/merge-config.ts';
import { conversationConfig, conversationLayers, filesDelta, filesRecord, ownLayer } from './conversation-config.ts';

const t = '2026-01-01T00:00:00.000Z';
const own = (delta: ConfigLayer): ConversationEvent => ({ type: 'config_delta', timestamp: t, delta });
const turn: ConversationEvent = { type: 'turn_start', timestamp: t };
const files = (workspace: ConfigLayer, user: ConfigLayer = {}): ConfigFiles => ({ user, workspace, userFile: '/home/me/.config/jp/config.toml' });
const v2 = { configVersion: 2, forkedFrom: undefined };

/** The effective value of assistant.model and where it came from. */
function model(configFiles: ConfigFiles, base: ConfigLayer, events: ConversationEvent[], cli: string[] = []) {
  const layers = [...conversationLayers(configFiles, conversationConfig('c1', base, events, v2)), readCfgArgs(cli)];
  const config = resolveConfig(layers);
  const source = configSources(layers, config).find((entry) => entry.key.join('.') === 'assistant.model')?.source;
  return { value: config.assistant.model, source };
}

describe("a conversation's configuration: a three-way merge", () => {
  // The conversation was created when the workspace file said model = "echo" (its base config).
  const base = { assistant: { model: 'echo' } };
  const unchanged = files({ assistant: { model: 'echo' } });
  const changed = files({ assistant: { model: 'anthropic/claude-new' } });
  const setByConversation = [turn, own({ assistant: { model: 'openai/gpt-own' } })];

  it.each([
    // who set the key  | the file       | events             | -c                                 | value                   | source
    ['nobody', 'unchanged', unchanged, [turn], [], 'echo', 'workspace'],
    ['nobody', 'changed', changed, [turn], [], 'anthropic/claude-new', 'workspace'],
    ['the conversation', 'unchanged', unchanged, setByConversation, [], 'openai/gpt-own', 'conversation'],
    ['the conversation', 'changed', changed, setByConversation, [], 'openai/gpt-own', 'conversation'],
    ['this invocation', 'unchanged', unchanged, setByConversation, ['assistant.model=google/cli'], 'google/cli', 'invocation'],
    ['this invocation', 'changed', changed, [turn], ['assistant.model=google/cli'], 'google/cli', 'invocation'],
  ] as const)('a key set by %s, the file %s', (_who, _file, configFiles, events, cli, value, source) => {
    expect(model(configFiles, base, [...events], [...cli])).toEqual({ value, source });
  });

  it('a key the conversation set and then unset follows the files again; other keys it set stay', () => {
    const unset: ConversationEvent = { type: 'config_delta', timestamp: t, delta: {}, removed: [['assistant', 'model']] };
    const both = [turn, own({ assistant: { model: 'openai/gpt-own', max_tokens: 7 } }), unset];
    expect(model(changed, base, both)).toEqual({ value: 'anthropic/claude-new', source: 'workspace' });
    expect(ownLayer(conversationConfig('c1', base, both, v2))).toEqual({ assistant: { max_tokens: 7 } });
    // Set again after the unset: the conversation's own value again.
    expect(model(changed, base, [...both, own({ assistant: { model: 'x/again' } })])).toEqual({ value: 'x/again', source: 'conversation' });
  });

  it('a key only the user file sets follows it; the workspace file and the conversation win over it', () => {
    const user = { assistant: { model: 'user/model', system_prompt: 'be brief' } };
    expect(model(files({}, user), {}, [turn])).toEqual({ value: 'user/model', source: 'user' });
    expect(model(files({ assistant: { model: 'echo' } }, user), {}, [turn])).toEqual({ value: 'echo', source: 'workspace' });
    expect(model(files({}, user), {}, setByConversation)).toEqual({ value: 'openai/gpt-own', source: 'conversation' });
  });

  it('a server added to the files after the conversation began is there', () => {
    const later = files({ mcp: { everything: { command: 'node', args: ['srv.js'] } } });
    const config = resolveConfig(conversationLayers(later, conversationConfig('c1', {}, [turn], v2)));
    expect(config.mcp.everything).toMatchObject({ command: 'node', args: ['srv.js'] });
  });

  it("deltas from the files are a record, never keys the conversation set", () => {
    const record: ConfigDeltaEvent = { type: 'config_delta', timestamp: t, source: 'files', delta: { assistant: { model: 'anthropic/claude-new' } } };
    const conversation = conversationConfig('c1', base, [turn, record], v2);
    expect(conversation.own).toEqual([]);
    expect(conversation.filesSeen).toEqual({ assistant: { model: 'anthropic/claude-new' } });
    // The file changed back: the conversation follows it.
    expect(model(unchanged, base, [turn, record])).toEqual({ value: 'echo', source: 'workspace' });
  });

  it('attachment declarations the conversation made are keys it set: the array is its own', () => {
    const events = [turn, own({ conversation: { attachments: ['README.md', 'src/'] } })];
    const layers = conversationLayers(files({ conversation: { attachments: ['README.md', 'docs/'] } }), conversationConfig('c1', {}, events, v2));
    expect(resolveConfig(layers).conversation.attachments).toEqual(['README.md', 'src/']);
  });
});

describe('the record of a change to the workspace file', () => {
  const conversation = conversationConfig('c1', { assistant: { model: 'echo' }, mcp: { old: { command: 'o' } } }, [turn], v2);

  it('holds the changed keys and the removed ones, once: the next turn sees it as seen', () => {
    const now = files({ assistant: { model: 'anthropic/x', max_tokens: 100 }, mcp: {} });
    const event = filesDelta(conversation, now, t)!;
    expect(event).toEqual({ type: 'config_delta', timestamp: t, source: 'files', delta: { assistant: { model: 'anthropic/x', max_tokens: 100 } }, removed: [['mcp', 'old']] });
    const after = conversationConfig('c1', { assistant: { model: 'echo' }, mcp: { old: { command: 'o' } } }, [turn, event, turn], v2);
    expect(filesDelta(after, now, t)).toBeUndefined();
  });

  it('is nothing when the file did not change, and never holds the user file', () => {
    expect(filesDelta(conversation, files({ assistant: { model: 'echo' }, mcp: { old: { command: 'o' } } }, { assistant: { system_prompt: 'mine' } }), t)).toBeUndefined();
  });

  it('leaves secret values out (and so does what a new conversation stores)', () => {
    const secret = files({ assistant: { model: 'echo' }, mcp: { old: { command: 'o', env: { TOKEN: 'ghp_literal', REF: '${GH}' } } } });
    expect(filesDelta(conversation, secret, t)!.delta).toEqual({ mcp: { old: { env: { REF: '${GH}' } } } });
    expect(JSON.stringify(filesRecord(secret))).not.toContain('ghp_literal');
  });
});

describe('conversations written by an earlier jp (no configVersion)', () => {
  it('follow the files now; a key the files no longer set keeps the value base-config.json has', () => {
    const old = conversationConfig('c1', { assistant: { model: 'echo', system_prompt: 'frozen' } }, [turn], { configVersion: undefined, forkedFrom: undefined });
    expect(old.own).toEqual([]);
    const layers = conversationLayers(files({ assistant: { model: 'anthropic/x' } }), old);
    const config = resolveConfig(layers);
    expect(config.assistant).toMatchObject({ model: 'anthropic/x', system_prompt: 'frozen' });
    const sources = configSources(layers, config);
    expect(sources.find((entry) => entry.key.join('.') === 'assistant.system_prompt')).toMatchObject({ source: 'conversation', from: 'conversation c1 (base-config.json)' });
    expect(resolveConfig(conversationLayers(files({}), old)).assistant.model).toBe('echo');
  });

  it('a fork made without turns keeps its flattened base-config.json as its own keys', () => {
    const flattened = { assistant: { model: 'echo' }, conversation: { attachments: ['b.txt'] } };
    const fork = conversationConfig('c2', flattened, [], { configVersion: undefined, forkedFrom: { id: 'c1', turn: null } });
    expect(ownLayer(fork)).toEqual(flattened);
    expect(resolveConfig(conversationLayers(files({ assistant: { model: 'anthropic/x' } }), fork)).conversation.attachments).toEqual(['b.txt']);
  });
});
