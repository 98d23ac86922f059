import { describe, expect, it, vi } from 'vitest';
import { ProviderError } from '@jp/core';
import type { Provider, StreamEvent } from '@jp/providers';
import { Output } from '../output/output.ts';
import { runTurn } from './run-turn.ts';

/** A provider that plays a script: each call either fails with the given error or streams events. */
function scripted(calls: Array<Error | StreamEvent[]>): Provider & { calls: number } {
  const provider = {
    id: 'scripted',
    calls: 0,
    readsContent: true,
    buildRequest: () => ({ request: {}, warnings: [] }),
    async *stream(): AsyncIterable<StreamEvent> {
      const step = calls[provider.calls++];
      if (step === undefined) throw new Error('script ran out');
      if (step instanceof Error) throw step;
      for (const event of step) {
        if (event.type === 'warning' && event.message === 'break') throw new ProviderError('scripted', 'connection lost', { isRetryable: true });
        yield event;
      }
    },
  };
  return provider;
}

const quietJson = new Output({ format: 'json', quiet: true, color: false });
const request = { model: 'm', events: [] };
const fast = { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 5 };
const busy = () => new ProviderError('scripted', 'rate limited (429)', { isRetryable: true, statusCode: 429 });

describe('runTurn', () => {
  it('records the streamed message with its usage', async () => {
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      const answer = await runTurn({
        provider: scripted([[{ type: 'text-delta', text: 'hel' }, { type: 'text-delta', text: 'lo' }, { type: 'finish', reason: 'stop', usage: { inputTokens: 3, outputTokens: 2 } }]]),
        request,
        output: quietJson,
        retry: fast,
      });
      expect(answer.text).toBe('hello');
      expect(answer.events).toEqual([{ type: 'chat_response', timestamp: expect.any(String), message: 'hello', usage: { inputTokens: 3, outputTokens: 2 } }]);
      expect(write.mock.calls.map((call) => JSON.parse(String(call[0])))).toEqual([
        { type: 'text_delta', text: 'hel' },
        { type: 'text_delta', text: 'lo' },
      ]);
    } finally {
      write.mockRestore();
    }
  });

  it('retries retryable failures before anything was shown, then succeeds', async () => {
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      const provider = scripted([busy(), busy(), [{ type: 'text-delta', text: 'ok' }]]);
      const answer = await runTurn({ provider, request, output: quietJson, retry: fast });
      expect(provider.calls).toBe(3);
      expect(answer.text).toBe('ok');
    } finally {
      write.mockRestore();
    }
  });

  it('gives up after max_retries with the last error', async () => {
    const provider = scripted([busy(), busy(), busy(), busy(), busy()]);
    await expect(runTurn({ provider, request, output: quietJson, retry: fast })).rejects.toMatchObject({
      exitCode: 3,
      message: 'rate limited (429) (gave up after 3 retries)',
    });
    expect(provider.calls).toBe(4);
  });

  it('does not retry errors that are not retryable', async () => {
    const provider = scripted([new ProviderError('scripted', 'key rejected', { statusCode: 401 }), [{ type: 'text-delta', text: 'never' }]]);
    await expect(runTurn({ provider, request, output: quietJson, retry: fast })).rejects.toMatchObject({ message: 'key rejected' });
    expect(provider.calls).toBe(1);
  });

  it('does not retry a stream that broke after text was shown', async () => {
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      const provider = scripted([[{ type: 'text-delta', text: 'partial' }, { type: 'warning', message: 'break' }], [{ type: 'text-delta', text: 'again' }]]);
      await expect(runTurn({ provider, request, output: quietJson, retry: fast })).rejects.toMatchObject({ message: 'connection lost' });
      expect(provider.calls).toBe(1);
    } finally {
      write.mockRestore();
    }
  });
});

describe('reasoning', () => {
  it('is stored always, and printed on stderr only when asked', async () => {
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const text = new Output({ format: 'text', quiet: true, color: false });
    const script = (): Provider & { calls: number } =>
      scripted([[{ type: 'reasoning-delta', text: 'pondering' }, { type: 'text-delta', text: 'answer' }]]);
    try {
      const silent = await runTurn({ provider: script(), request, output: text, retry: fast });
      expect(silent.events[0]).toMatchObject({ type: 'chat_response', reasoning: 'pondering' });
      expect(err.mock.calls.flat().join('')).not.toContain('pondering');
      await runTurn({ provider: script(), request, output: text, retry: fast, showReasoning: true });
      expect(err.mock.calls.flat().join('')).toContain('pondering');
      expect(out.mock.calls.flat().join('')).not.toContain('pondering');
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
  });
});

describe('runTurn: the wait spinner', () => {
  it('starts with each request and stops at its first event, before anything is written; and on a failure', async () => {
    const log: string[] = [];
    const waiting = { start: () => log.push('start'), stop: () => log.push('stop') };
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((text) => (log.push(`write ${String(text).trim()}`), true));
    try {
      const provider = scripted([busy(), [{ type: 'text-delta', text: 'hi' }, { type: 'text-delta', text: '!' }]]);
      await runTurn({ provider, request, output: quietJson, retry: fast, waiting });
      expect(log).toEqual([
        'start',
        'stop', // the 429: erased before the retry notice
        'write {"type":"retry","attempt":1,"retries":3,"delayMs":1,"message":"rate limited (429)"}',
        'start',
        'stop', // the first delta
        'write {"type":"text_delta","text":"hi"}',
        'stop',
        'write {"type":"text_delta","text":"!"}',
        'stop', // finally
      ]);
    } finally {
      write.mockRestore();
    }
  });
});
