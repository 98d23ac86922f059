import type { InputRequest } from '@jp/core';
import { promptConfirm, promptEditor, promptInput, promptSelect } from '../output/terminal-prompts.ts';

/** No one can answer: no terminal and no default. */
export class UnansweredQuestion extends Error {
  override name = 'UnansweredQuestion';
  constructor(readonly question: InputRequest) {
    super(`question "${question.text}" (${question.id}) needs an answer, but there is no terminal and it has no default`);
  }
}

type Kind = 'boolean' | 'enum' | 'string' | 'other';

function kindOf(schema: Record<string, unknown>): Kind {
  if (schema.type === 'boolean') return 'boolean';
  if (schema.type === 'string' && Array.isArray(schema.enum) && schema.enum.every((value) => typeof value === 'string')) return 'enum';
  if (schema.type === 'string') return 'string';
  return 'other';
}

/**
 * Answers a tool's question. On a terminal: yes/no for booleans, a list for string enums, a line
 * of input for strings, and $EDITOR with a JSON template for anything else. Without a terminal the
 * question's `default` is the answer; with none, `UnansweredQuestion` — never a hang.
 */
export async function answerQuestion(question: InputRequest, interactive: boolean): Promise<unknown> {
  if (!interactive) {
    if (question.default !== undefined) return question.default;
    throw new UnansweredQuestion(question);
  }
  const schema = question.schema;
  switch (kindOf(schema)) {
    case 'boolean':
      return promptConfirm(question.text, typeof question.default === 'boolean' ? question.default : undefined);
    case 'enum': {
      const choices = (schema.enum as string[]).map((value) => ({ value, name: value }));
      return promptSelect(question.text, choices, question.default);
    }
    case 'string':
      return promptInput(question.text, typeof question.default === 'string' ? question.default : undefined);
    default: {
      const template = JSON.stringify(question.default ?? null, null, 2);
      for (;;) {
        const text = await promptEditor(`${question.text} (JSON matching ${JSON.stringify(schema)})`, template, '.json');
        try {
          return JSON.parse(text);
        } catch {
          process.stderr.write('jp: that is not valid JSON; try again\n');
        }
      }
    }
  }
}
