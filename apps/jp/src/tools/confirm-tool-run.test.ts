import { describe, expect, it } from 'vitest';
import { confirmToolRun, type ToolApproval } from './confirm-tool-run.ts';
import type { ToolRunContext } from './jp-tool.ts';

function context(interactive: boolean): ToolRunContext {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    interactive,
    approvedForTurn: new Set<string>(),
    prompt: <T>(fn: () => Promise<T>) => {
      const next = tail.then(fn, fn);
      tail = next.catch(() => undefined);
      return next;
    },
  } as unknown as ToolRunContext;
}

const call = (name: string) => ({ id: `c-${name}`, name, arguments: { path: 'x' } });

describe('confirmToolRun', () => {
  it('offers yes, no and yes for the rest of this turn, yes first', async () => {
    const asked: Array<{ message: string; values: ToolApproval[]; initial: ToolApproval }> = [];
    const ask = async (message: string, choices: readonly { value: ToolApproval }[], initial: ToolApproval) => {
      asked.push({ message, values: choices.map((choice) => choice.value), initial });
      return 'yes' as const;
    };
    expect(await confirmToolRun(call('fs'), context(true), ask)).toBe(true);
    expect(asked).toEqual([{ message: 'Run tool fs {"path":"x"}?', values: ['yes', 'no', 'turn'], initial: 'yes' }]);
  });

  it('a no becomes the reason the model is given', async () => {
    expect(await confirmToolRun(call('fs'), context(true), async () => 'no')).toBe('the user declined to run tool fs');
  });

  it('"yes for the rest of this turn" covers later calls of that tool only, including ones already waiting', async () => {
    const ctx = context(true);
    const answers: ToolApproval[] = ['turn', 'no'];
    let asks = 0;
    const ask = async () => {
      asks += 1;
      return answers.shift()!;
    };
    const [first, waiting] = await Promise.all([confirmToolRun(call('fs'), ctx, ask), confirmToolRun(call('fs'), ctx, ask)]);
    expect([first, waiting]).toEqual([true, true]);
    expect(await confirmToolRun(call('fs'), ctx, ask)).toBe(true);
    expect(asks).toBe(1);
    expect(await confirmToolRun(call('other'), ctx, ask)).toBe('the user declined to run tool other');
    expect(asks).toBe(2);
  });

  it('a new turn asks again: the approval lives in the turn context', async () => {
    const ask = async () => 'turn' as const;
    await confirmToolRun(call('fs'), context(true), ask);
    let asked = false;
    await confirmToolRun(call('fs'), context(true), async () => {
      asked = true;
      return 'yes';
    });
    expect(asked).toBe(true);
  });

  it('without a terminal it does not ask and says how to allow the tool', async () => {
    const result = await confirmToolRun(call('fs'), context(false), async () => {
      throw new Error('must not ask');
    });
    expect(result).toMatch(/needs confirmation \(run = "ask"\) and there is no terminal; rerun with --allow-tools/);
  });
});

describe('what an approval of a stateful tool covers', () => {
  it('asks at spawn only: fetch, input and abort belong to the approved program', async () => {
    const { createStatefulTool } = await import('./stateful/stateful-tool.ts');
    const tool = createStatefulTool('srv', { command: 'x', args: [], description: 'd', parameters: { type: 'object', properties: {} }, run: 'ask', timeout_secs: 5, max_output_bytes: 1024, stateful: 'process' } as never, (() => undefined) as never);
    expect(['spawn', 'fetch', 'input', 'abort'].map((action) => tool.asks?.({ action, id: 'h' }))).toEqual([true, false, false, false]);
  });
});
