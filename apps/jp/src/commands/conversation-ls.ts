import { UsageError } from '@jp/core';
import type { GlobalOptions } from '../cli/global-options.ts';
import { workspaceContext } from '../cli/command-context.ts';
import { lineNotice } from '../conversation/line-notice.ts';
import { linesOf, type Lines } from '../store/your-line.ts';
import { workspaceLabel } from '../workspace/workspace.ts';

/** Lists conversations from their metadata files alone: no events, no schemas, no blobs are read. */
export async function conversationLs(globals: GlobalOptions, options: { limit?: string }): Promise<void> {
  const { store, output, workspace } = workspaceContext(globals);
  let limit: number | undefined;
  if (options.limit !== undefined) {
    limit = Number(options.limit);
    if (!Number.isInteger(limit) || limit < 1) throw new UsageError(`--limit takes a whole number of at least 1, not ${options.limit}`, { code: 'usage_error' });
  }
  const active = store.activeId();
  const all = store.list().slice(0, limit);
  // Nothing hidden: a conversation that does not load is listed with why (RFD 029).
  const unreadable = store.unreadable();
  // A conversation continued on more than one clone from one turn: its other lines are listed as
  // `<id>~<key>`; which line is this clone's is said once, in its own terms (issue W).
  const diverged = new Map<string, Lines>();
  for (const base of new Set(all.filter((m) => m.id.includes('~')).map((m) => m.id.split('~')[0]!))) {
    const lines = linesOf(store.jpDir, base);
    if (lines === undefined) continue;
    diverged.set(base, lines);
    const notice = output.json || output.options.quiet ? undefined : lineNotice(store.jpDir, base, lines);
    if (notice !== undefined) output.note(notice);
  }
  const yours = (id: string) => {
    const lines = diverged.get(id.split('~')[0]!);
    return lines === undefined ? {} : { yours: lines.yours.id === id };
  };
  if (output.json) {
    output.data({
      workspace: { root: workspace.root, kind: workspace.kind ?? 'project' },
      conversations: all.map((m) => ({
        id: m.id,
        title: m.title ?? null,
        turns: m.turnCount,
        createdAt: m.createdAt,
        lastActivityAt: m.lastActivityAt,
        active: m.id === active,
        forkedFrom: m.forkedFrom ?? null,
        ...yours(m.id),
      })),
      unreadable: unreadable.map((u) => ({ id: u.id, state: 'damaged', reason: u.reason })),
    });
    return;
  }
  // Which workspace this is: always for the user's own (it is not where the person stands), and to a person at a terminal.
  if (workspace.kind === 'user' || output.drawsStatus) output.note(`workspace: ${workspaceLabel(workspace)}`, { dim: true });
  if (all.length === 0 && unreadable.length === 0) {
    output.note('no conversations yet; start one with `jp query --new "…"`');
    return;
  }
  for (const m of all) {
    const marker = m.id === active ? '*' : ' ';
    const turns = `${m.turnCount} turn${m.turnCount === 1 ? '' : 's'}`;
    const fork = m.forkedFrom ? `  (fork of ${m.forkedFrom.id})` : '';
    output.line(
      m.id === active ? ['good', marker] : marker,
      ` ${m.id}  `,
      ['dim', `${m.lastActivityAt.slice(0, 19).replace('T', ' ')}  ${turns.padEnd(9)}`],
      `  ${m.title ?? ''}`,
      ['dim', fork],
    );
  }
  for (const u of unreadable) output.line(['bad', '!'], ` ${u.id}  `, ['dim', 'damaged  '], u.reason);
}
