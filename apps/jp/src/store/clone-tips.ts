import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from './atomic-write.ts';
import { LOCAL_DIR } from './jp-git-files.ts';

/*
 * Each clone's own place in each conversation (issue W): the id of the turn this clone last added
 * to it, or chose with `jp conversation use`. Kept under `.jp/local/`, never shared: after a pull
 * that made a divergence, it says which line is this clone's (`your-line.ts`), whatever the shared
 * rule names as the conversation. Best effort: a clone that cannot write it goes on by the shared
 * rule, as before.
 */

function tipsFile(jpDir: string): string {
  return path.join(jpDir, LOCAL_DIR, 'tips.json');
}

/** This clone's tips, by conversation id. */
export function readTips(jpDir: string): Record<string, string> {
  try {
    const json: unknown = JSON.parse(readFileSync(tipsFile(jpDir), 'utf8'));
    if (typeof json !== 'object' || json === null || Array.isArray(json)) return {};
    return Object.fromEntries(Object.entries(json).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    return {};
  }
}

/** Records `turn` as this clone's tip of conversation `id` (its own id, not a branch's). */
export function recordTip(jpDir: string, id: string, turn: string): void {
  const tips = readTips(jpDir);
  if (tips[id] === turn) return;
  tips[id] = turn;
  try {
    mkdirSync(path.dirname(tipsFile(jpDir)), { recursive: true });
    writeFileAtomic(tipsFile(jpDir), `${JSON.stringify(tips)}\n`, { flush: false });
  } catch {
    // The shared rule decides until the next turn records it.
  }
}
