import { setMaxListeners } from 'node:events';
import { ExitCode, JpError } from '@jp/core';

export class Interrupted extends JpError {
  override name = 'Interrupted';
  constructor() {
    super('interrupted; nothing of this query was stored', { exitCode: ExitCode.interrupted, code: 'interrupted' });
  }
}

/**
 * Ctrl-C during a query: the first press aborts the work in progress (the model stream, tools,
 * resolution) and the query ends with exit 130, storing nothing; a second press exits at once.
 */
export function onInterrupt(): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  // Every model call, MCP request and tool of the query listens to this one signal, and the MCP
  // SDK never removes its listeners: past 10 of them Node would warn of a leak that is none.
  setMaxListeners(0, controller.signal);
  const handler = () => {
    if (controller.signal.aborted) process.exit(ExitCode.interrupted);
    controller.abort(new Interrupted());
  };
  process.on('SIGINT', handler);
  return { signal: controller.signal, dispose: () => process.off('SIGINT', handler) };
}
