import type { SpawnHandle } from './handle.ts';
import { spawnProcessHandle } from './process-handle.ts';

export type StatefulMode = 'process' | 'protocol';

/**
 * The handle factory of each `stateful` mode. `protocol` is not wired yet: a tool that asks for it
 * is refused with a config error (`statefulModeError`) instead of being offered.
 */
const FACTORIES: Partial<Record<StatefulMode, SpawnHandle>> = {
  process: spawnProcessHandle,
};

export function spawnHandleFor(mode: StatefulMode): SpawnHandle | undefined {
  return FACTORIES[mode];
}
