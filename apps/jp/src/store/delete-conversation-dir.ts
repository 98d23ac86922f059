import { renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { crashPoint, enospcPoint } from './test-hooks.ts';
import { writeFailure } from './write-fully.ts';

/**
 * Deletes conversation `id`'s directory under `conversationsDir`, renamed first to a hidden
 * `.rm-<id>-<pid>`: a concurrent reader, or anyone after a crash, never sees a half-deleted
 * conversation, and the next writer or `jp gc` removes what a killed remove left. The test point
 * (test-hooks.ts) is `remove:rename`.
 */
export function deleteConversationDir(conversationsDir: string, id: string): void {
  const dir = path.join(conversationsDir, id);
  const doomed = path.join(conversationsDir, `.rm-${id}-${process.pid}`);
  try {
    enospcPoint('remove:rename', doomed);
    renameSync(dir, doomed);
  } catch (error) {
    throw writeFailure(error, dir);
  }
  crashPoint('remove:rename');
  rmSync(doomed, { recursive: true, force: true });
}
