import type { GlobalOptions } from '../cli/global-options.ts';
import { workspaceContext } from '../cli/command-context.ts';

// Placeholder until the blob store lands (issue F): there is nothing to collect yet.
export async function gcCommand(globals: GlobalOptions): Promise<void> {
  const { output } = workspaceContext(globals);
  if (output.json) output.data({ removed: 0, bytes: 0 });
  else output.note('nothing to collect');
}
