import os from 'node:os';
import { findWorkspace } from '../workspace/workspace.ts';
import { candidateLine } from './completion-candidate.ts';
import { completionValues, isDynamicKind } from './completion-values.ts';

/**
 * `jp __complete [--workspace DIR] [--id ID] KIND [PREFIX]`: the candidates of one kind starting
 * with PREFIX, one a line (`value<TAB>description`). It runs inside the user's prompt line, so it
 * prints nothing but candidates and always exits 0: outside a workspace, on unknown arguments and
 * on any error it prints nothing at all. `jp.ts` dispatches it before the CLI's parser is loaded;
 * it is the scripts' interface, not part of the CLI's contract (RFD 015).
 */
export async function completeCommand(args: readonly string[]): Promise<string> {
  try {
    let workspace: string | undefined;
    let id: string | undefined;
    const rest: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!;
      if (arg === '--workspace') workspace = args[++i];
      else if (arg === '--id') id = args[++i];
      else rest.push(arg);
    }
    const [kind, prefix = ''] = rest;
    if (!isDynamicKind(kind) || rest.length > 2) return '';
    let jpDir: string | undefined;
    try {
      // The shell passes `-w ~/dir` as typed, before it would have expanded the tilde.
      const dir = workspace?.replace(/^~(?=\/|$)/, os.homedir());
      jpDir = findWorkspace(process.cwd(), dir === '' ? undefined : dir).jpDir;
    } catch {
      jpDir = undefined;
    }
    const lines = (await completionValues(kind, { jpDir, id: id === '' ? undefined : id }))
      .filter((candidate) => candidate.value.startsWith(prefix))
      .map(candidateLine)
      .filter((line): line is string => line !== undefined);
    return lines.map((line) => `${line}\n`).join('');
  } catch {
    return '';
  }
}
