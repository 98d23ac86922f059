import type { ConversationEvent } from '@jp/core';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../config/load-config.ts';
import { conversationLayers, effectiveConversationLayers } from './conversation-config.ts';

const delta = (value: Record<string, unknown>): ConversationEvent => ({ type: 'config_delta', timestamp: '2026-01-01T00:00:00.000Z', delta: value }) as ConversationEvent;

describe("a conversation's configuration", () => {
  const user = { assistant: { model: 'anthropic/claude-user', system_prompt: 'be brief' }, mcp: { gh: { command: 'gh-mcp', env: { GITHUB_TOKEN: 'ghp_user' } } } };
  const workspace = { assistant: { model: 'echo' }, conversation: { attachments: ['README.md'] } };

  it('is the user file as it is now, under the stored workspace layer and the deltas', () => {
    const events = [delta({ conversation: { attachments: ['README.md', 'src/'] } })];
    const config = resolveConfig(effectiveConversationLayers(user, workspace, events));
    expect(config.assistant.model).toBe('echo'); // the workspace file, as stored, over the user's
    expect(config.assistant.system_prompt).toBe('be brief'); // the user's file, live
    expect(config.mcp.gh!.env).toEqual({ GITHUB_TOKEN: 'ghp_user' });
    expect(config.conversation.attachments).toEqual(['README.md', 'src/']);

    const later = resolveConfig(effectiveConversationLayers({ assistant: { system_prompt: 'be thorough' } }, workspace, events));
    expect(later.assistant.system_prompt).toBe('be thorough');
    expect(later.mcp).toEqual({});
  });

  it('stores nothing of the user file: the stored layers are the base config and the deltas only', () => {
    const events = [delta({ assistant: { model: 'openai/gpt-x' } })];
    expect(conversationLayers(workspace, events)).toEqual([workspace, { assistant: { model: 'openai/gpt-x' } }]);
    expect(JSON.stringify(conversationLayers(workspace, events))).not.toContain('ghp_user');
  });

  it('of a conversation created before the rule (user values in its base config) keeps those values over the file', () => {
    const oldBase = { ...workspace, assistant: { model: 'echo', system_prompt: 'frozen' } };
    const config = resolveConfig(effectiveConversationLayers(user, oldBase, []));
    expect(config.assistant.system_prompt).toBe('frozen');
    expect(config.assistant.model).toBe('echo');
  });
});
