import type { Output } from '../output/output.ts';
import { splitConversationId } from '../store/conversation-branch-id.ts';
import { linesOf, type Lines } from '../store/your-line.ts';
import { lineNotice } from './line-notice.ts';

/**
 * The line a command on conversation `id` works on (issue W): for a conversation's own id, this
 * clone's line when it diverged (`linesOf`), with the one-line notice the first time; a branch's
 * id (`ID~KEY`) as given. Returns the id to use and, for a diverged conversation, its lines.
 */
export function chooseLine(jpDir: string, id: string, output: Output): { id: string; lines: Lines | undefined } {
  const { base, branch } = splitConversationId(id);
  const lines = linesOf(jpDir, base);
  if (lines === undefined) return { id, lines };
  // Told to a person only: a run that prints no notes (-F json, -q) leaves it for the next one.
  const notice = output.json || output.options.quiet ? undefined : lineNotice(jpDir, base, lines);
  if (notice !== undefined) output.note(notice);
  return { id: branch === undefined ? lines.yours.id : id, lines };
}
