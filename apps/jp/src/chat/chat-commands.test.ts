import { describe, expect, it } from 'vitest';
import { chatHelp, parseChatInput } from './chat-commands.ts';

describe('parseChatInput', () => {
  it('reads commands with their words', () => {
    expect(parseChatInput('/attach src/a.ts  b.ts')).toEqual({ type: 'command', name: '/attach', args: ['src/a.ts', 'b.ts'], rest: 'src/a.ts  b.ts' });
    expect(parseChatInput('/ls')).toEqual({ type: 'command', name: '/ls', args: [], rest: '' });
    expect(parseChatInput('/explain why is it slow?')).toMatchObject({ name: '/explain', rest: 'why is it slow?' });
  });

  it('reads anything else as a message, a path included', () => {
    expect(parseChatInput('hello /ls')).toEqual({ type: 'message', text: 'hello /ls' });
    expect(parseChatInput('/tmp/x.log is empty, why?')).toEqual({ type: 'message', text: '/tmp/x.log is empty, why?' });
    expect(parseChatInput('//ls')).toEqual({ type: 'message', text: '/ls' });
  });

  it('names an unknown command', () => {
    expect(parseChatInput('/frobnicate now')).toEqual({ type: 'unknown', name: '/frobnicate' });
  });

  it('lists every command in /help', () => {
    const help = chatHelp();
    for (const name of ['/attach', '/detach', '/ls', '/model', '/fork', '/new', '/explain', '/edit', '/help', '/quit']) expect(help).toContain(name);
  });
});
