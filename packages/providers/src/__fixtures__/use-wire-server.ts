// The local wire server of one test file (or describe block), started once for its tests.
import { createWireServer, type ScriptedResponse, type WireServer } from '@jp/test-server';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';

/**
 * Starts a wire server before the tests of the enclosing block and closes it after them. After
 * each test every scripted answer must have been taken, and the recorded requests are cleared.
 * The returned server is usable inside tests only (it starts in `beforeAll`).
 */
export function useWireServer(): WireServer {
  let started: WireServer | undefined;
  const live = (): WireServer => {
    if (started === undefined) throw new Error('the wire server starts before the tests; use it inside one');
    return started;
  };
  beforeAll(async () => {
    started = await createWireServer();
  });
  afterAll(async () => {
    await started?.close();
  });
  afterEach(() => {
    expect(live().remaining, 'scripted answers left unused').toBe(0);
    live().requests.length = 0;
  });
  return {
    get url() {
      return live().url;
    },
    get requests() {
      return live().requests;
    },
    get remaining() {
      return live().remaining;
    },
    enqueue: (...responses: ScriptedResponse[]) => live().enqueue(...responses),
    close: () => live().close(),
  };
}
