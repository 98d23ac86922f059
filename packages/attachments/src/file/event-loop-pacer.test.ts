import { JpError } from '@jp/core';
import { describe, expect, it } from 'vitest';
import { createEventLoopPacer } from './event-loop-pacer.ts';

describe('createEventLoopPacer', () => {
  it('lets a pending immediate run once a slice has passed, not before', async () => {
    const pace = createEventLoopPacer(undefined, 5);
    let ran = false;
    setImmediate(() => (ran = true));
    await pace();
    expect(ran).toBe(false);
    const until = performance.now() + 6;
    while (performance.now() < until) {
      // busy, as a loop of synchronous reads is
    }
    await pace();
    expect(ran).toBe(true);
  });

  it('throws an interruption (exit 130) once the signal is aborted', async () => {
    const controller = new AbortController();
    const pace = createEventLoopPacer(controller.signal);
    await pace();
    controller.abort();
    const error = await pace().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(JpError);
    expect((error as JpError).exitCode).toBe(130);
  });
});
