import { JpError } from '@jp/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEventLoopPacer } from './event-loop-pacer.ts';

describe('createEventLoopPacer', () => {
  afterEach(() => vi.restoreAllMocks());

  it('lets a pending immediate run once a slice has passed, not before', async () => {
    // The pacer's clock is stubbed, so "a slice has passed" does not depend on how fast this runs.
    let clock = 1_000;
    vi.spyOn(performance, 'now').mockImplementation(() => clock);
    const pace = createEventLoopPacer(undefined, 5);
    let ran = false;
    setImmediate(() => (ran = true));
    clock += 4;
    await pace();
    expect(ran).toBe(false);
    clock += 2; // busy, as a loop of synchronous reads is
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
