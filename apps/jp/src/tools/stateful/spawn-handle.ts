import type { SpawnHandle } from './handle.ts';
import { spawnProcessHandle } from './process-handle.ts';
import { spawnProtocolHandle } from './protocol-handle.ts';

export type StatefulMode = 'process' | 'protocol';

/** The handle factory of each `stateful` mode (RFD 019). */
const FACTORIES: Record<StatefulMode, SpawnHandle> = {
  process: spawnProcessHandle,
  protocol: spawnProtocolHandle,
};

export function spawnHandleFor(mode: StatefulMode): SpawnHandle {
  return FACTORIES[mode];
}
