import { newlySeenBranches } from '../store/announced-branches.ts';
import type { LineFacts, Lines } from '../store/your-line.ts';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "ID~KEY (2 turns after turn 3, the last at 2026-12-02 17:40)" */
function describe(line: LineFacts): string {
  const own = line.turns - line.shared;
  const when = line.lastActivityAt === '' ? '' : `, the last at ${line.lastActivityAt.slice(0, 16).replace('T', ' ')}`;
  return `${line.id} (${plural(own, 'turn')} after turn ${line.shared - 1}${when})`;
}

/**
 * The one line that says a conversation was continued on more than one clone (RFD 029, issue W),
 * in the user's own terms: which line is theirs, which is the other and how to switch to it. Said
 * once per machine for each line it names (recorded under `.jp/local/`); `undefined` when told.
 */
export function lineNotice(jpDir: string, id: string, lines: Lines): string | undefined {
  const named = [lines.yours, ...lines.others].map((line) => line.id).filter((line) => line.includes('~'));
  if (newlySeenBranches(jpDir, named).length === 0) return undefined;
  const split = Math.min(...[lines.yours, ...lines.others].map((line) => line.shared)) - 1;
  const yours = lines.chosen
    ? `your turns go on ${lines.yours.id === id ? 'here' : `as ${lines.yours.id}`}`
    : `this clone has no turns of its own there, so jp goes on with ${lines.yours.id === id ? id : lines.yours.id}`;
  const others = lines.others.map(describe);
  const other = others.length === 1 ? `the other line is ${others[0]}` : `the other lines are ${others.join(', ')}`;
  const target = lines.others.length === 1 ? lines.others[0]!.id : 'LINE';
  return `jp: ${id} was continued on more than one clone after turn ${split}: ${yours}; ${other}; \`jp c use ${target}\` switches to it`;
}

/** The same facts for `-F json`: every time, not once. */
export function linesJson(lines: Lines): Record<string, unknown> {
  return { yours: lines.yours.id, chosen: lines.chosen, lines: [lines.yours, ...lines.others].map((line) => ({ ...line, yours: line.id === lines.yours.id })) };
}
