import { describe, expect, it } from 'vitest';
import type { HandleReply, HandleStatus, SpawnHandle, SpawnOptions, StatefulHandle } from './handle.ts';
import { HandleRegistry } from './handle-registry.ts';

/** A handle that only records what was asked of it: the registry's rules do not depend on a real program. */
class RecordingHandle implements StatefulHandle {
  status: HandleStatus = 'running';
  aborts = 0;
  constructor(readonly id: string) {}
  async fetch(): Promise<HandleReply> {
    return { status: this.status, content: [], isError: false, ...(this.status === 'stopped' ? { exitCode: 0 } : {}) };
  }
  async apply(): Promise<HandleReply> {
    return this.fetch();
  }
  async abort(): Promise<HandleReply> {
    this.aborts++;
    this.status = 'stopped';
    return { status: 'stopped', content: [{ type: 'text', text: 'last words' }], isError: false, exitCode: null };
  }
}

const options = { command: 'prog' } as SpawnOptions;
function factory() {
  const made: RecordingHandle[] = [];
  const spawn: SpawnHandle = async (id) => {
    const handle = new RecordingHandle(id);
    made.push(handle);
    return handle;
  };
  return { made, spawn };
}

describe('HandleRegistry', () => {
  it('refuses a duplicate id, even of a finished handle', async () => {
    const registry = new HandleRegistry(8);
    const { spawn } = factory();
    expect((await registry.spawn('t', 'a', spawn, options, 60_000)).status).toBe('running');
    await expect(registry.spawn('t', 'a', spawn, options, 60_000)).rejects.toThrow(/already exists/);
    registry.delivered('a', await registry.get('t', 'a').abort());
    await expect(registry.spawn('t', 'a', spawn, options, 60_000)).rejects.toThrow(/already exists/);
  });

  it('two spawns with one id in the same round: one wins', async () => {
    const registry = new HandleRegistry(8);
    const { spawn, made } = factory();
    const results = await Promise.allSettled([registry.spawn('t', 'x', spawn, options, 60_000), registry.spawn('t', 'x', spawn, options, 60_000)]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(made).toHaveLength(1);
  });

  it('stops at the limit of handles per query', async () => {
    const registry = new HandleRegistry(2);
    const { spawn } = factory();
    await registry.spawn('t', 'a', spawn, options, 60_000);
    await registry.spawn('t', 'b', spawn, options, 60_000);
    await expect(registry.spawn('t', 'c', spawn, options, 60_000)).rejects.toThrow(/already has 2 handles/);
  });

  it('an unknown handle, a handle of another tool and a finished handle are errors', async () => {
    const registry = new HandleRegistry(8);
    const { spawn } = factory();
    await registry.spawn('t', 'a', spawn, options, 60_000);
    expect(() => registry.get('t', 'nope')).toThrow(/no handle "nope" of tool t in this query; open: a/);
    expect(() => registry.get('other', 'a')).toThrow(/no handle "a" of tool other/);
    registry.delivered('a', await registry.get('t', 'a').abort());
    expect(() => registry.get('t', 'a')).toThrow(/has finished/);
  });

  it('a program that cannot start is an error and frees its id', async () => {
    const registry = new HandleRegistry(8);
    const failing: SpawnHandle = async () => {
      throw Object.assign(new Error('spawn prog ENOENT'), { code: 'ENOENT' });
    };
    await expect(registry.spawn('t', 'a', failing, options, 60_000)).rejects.toThrow('tool t could not be started: program prog not found');
    expect(registry.size).toBe(0);
  });

  it('closeAll aborts every handle the model has not seen end, once, and refuses new ones', async () => {
    const registry = new HandleRegistry(8);
    const { spawn, made } = factory();
    await registry.spawn('t', 'a', spawn, options, 60_000);
    await registry.spawn('u', 'b', spawn, options, 60_000);
    registry.delivered('b', await registry.get('u', 'b').abort());
    const closed = await registry.closeAll();
    expect(closed).toEqual([{ tool: 't', id: 'a', reply: expect.objectContaining({ status: 'stopped' }), wasRunning: true }]);
    expect(made.map((handle) => handle.aborts)).toEqual([1, 1]);
    expect(await registry.closeAll()).toEqual([]);
    await expect(registry.spawn('t', 'c', spawn, options, 60_000)).rejects.toThrow(/turn is over/);
  });

  it('an aborted query signal aborts every handle', async () => {
    const controller = new AbortController();
    const registry = new HandleRegistry(8, controller.signal);
    const { spawn, made } = factory();
    await registry.spawn('t', 'a', spawn, options, 60_000);
    controller.abort();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(made[0]!.aborts).toBe(1);
  });

  it('max runtime aborts a handle', async () => {
    const registry = new HandleRegistry(8);
    const { spawn, made } = factory();
    await registry.spawn('t', 'a', spawn, options, 20);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(made[0]!.status).toBe('stopped');
    const reply = registry.delivered('a', await registry.get('t', 'a').fetch(0));
    expect(reply.content[0]).toEqual({ type: 'text', text: 'jp stopped the program: it reached its longest life (max_runtime_secs)' });
  });
});
