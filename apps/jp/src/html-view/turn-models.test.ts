import type { ConversationEvent } from '@jp/core';
import { describe, expect, it } from 'vitest';
import { turnModels } from './turn-models.ts';

const start: ConversationEvent = { type: 'turn_start', timestamp: 't' };
const own = (model: string): ConversationEvent => ({ type: 'config_delta', timestamp: 't', delta: { assistant: { model } } });
const files = (delta: Record<string, unknown>, removed?: string[][]): ConversationEvent => ({ type: 'config_delta', timestamp: 't', source: 'files', delta, ...(removed ? { removed } : {}) });

describe('turnModels', () => {
  it("follows the workspace file's model, then what the conversation set itself, turn by turn", () => {
    const events = [start, start, own('openai/gpt-4o'), start, files({ assistant: { model: 'google/gemini-2.5-pro' } }), start];
    expect(turnModels({ assistant: { model: 'anthropic/claude-haiku-4-5' } }, events, 'echo')).toEqual([
      'anthropic/claude-haiku-4-5',
      'openai/gpt-4o',
      'openai/gpt-4o',
      'openai/gpt-4o',
    ]);
  });

  it('falls back to the model configured now when the stream records none', () => {
    expect(turnModels({}, [start, files({}, [['assistant', 'model']]), start], 'echo')).toEqual(['echo', 'echo']);
    expect(turnModels({ assistant: { model: 'x/y' } }, [start, files({}, [['assistant', 'model']])], undefined)).toEqual([undefined]);
  });

  it("takes a turn's recorded model over what the configuration said, a -c or jp's own pick included", () => {
    const recorded = (model: string): ConversationEvent => ({ type: 'turn_start', timestamp: 't', model });
    expect(turnModels({ assistant: { model: 'x/files' } }, [recorded('x/one-off'), own('x/own'), start, recorded('anthropic/claude-sonnet-4-5')], undefined)).toEqual([
      'x/one-off',
      'x/own',
      'anthropic/claude-sonnet-4-5',
    ]);
  });
});
