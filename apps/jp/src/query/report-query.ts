import { linesJson } from '../conversation/line-notice.ts';
import type { Lines } from '../store/your-line.ts';
import type { Output } from '../output/output.ts';
import type { TurnAnswer } from './answer-turn.ts';

/** What a query prints once its turn is done: the `result` line with `-F json`, else the structured answer and a note. */
export function reportQuery(output: Output, outcome: { id: string | undefined; turn: number; answer: TurnAnswer; created: boolean; schema: boolean; lines?: Lines | undefined }): void {
  const { id, turn, answer, created, schema, lines } = outcome;
  if (output.json) {
    output.data({
      type: 'result',
      conversation: id ?? null,
      // A conversation continued on more than one clone: which line is this clone's (issue W).
      ...(lines === undefined ? {} : { lines: linesJson(lines) }),
      turn,
      usage: answer.result.usage,
      text: answer.result.text,
      ...(schema ? { structured: answer.structured } : {}),
    });
    return;
  }
  // JSON, so the one way it is printed: exact, and with nothing a terminal would act on.
  if (schema) output.data(answer.structured);
  if (created && id !== undefined) output.note(`jp: new conversation ${id}`);
}
