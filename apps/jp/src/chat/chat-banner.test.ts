import { describe, expect, it } from 'vitest';
import { chatBanner } from './chat-banner.ts';

describe('chatBanner', () => {
  it('names the model and the conversation, with its title', () => {
    expect(chatBanner({ id: undefined, title: undefined, model: 'echo' })).toBe('jp: chatting with echo in a new conversation; /help lists the commands, Ctrl-D leaves');
    expect(chatBanner({ id: '0mx1', title: 'Build times', model: 'anthropic/claude-sonnet-4-5' })).toBe(
      'jp: chatting with anthropic/claude-sonnet-4-5 in 0mx1 (“Build times”); /help lists the commands, Ctrl-D leaves',
    );
    expect(chatBanner({ id: '0mx1', title: undefined, model: 'none' })).toBe('jp: chatting with no model configured yet (/model ID picks one) in 0mx1; /help lists the commands, Ctrl-D leaves');
    expect(chatBanner({ id: undefined, title: undefined, model: 'unknown' })).toBe('jp: chatting in a new conversation; /help lists the commands, Ctrl-D leaves');
  });
});
