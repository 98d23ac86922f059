import type { InputRequest } from '@jp/core';
import { createAjv } from '../../query/load-ajv.ts';

/**
 * Checks the model's answer to a tool's question against the question's JSON Schema (RFD 058: "JP
 * sends the schema and gets a conforming response"). Returns what is wrong, or `undefined` when it
 * fits. A schema that does not compile is not held against the model: the answer passes.
 */
export async function checkAnswer(question: InputRequest, answer: unknown): Promise<string | undefined> {
  const ajv = await createAjv();
  let validate;
  try {
    validate = ajv.compile(question.schema);
  } catch {
    return undefined;
  }
  return validate(answer) ? undefined : ajv.errorsText(validate.errors, { dataVar: 'input', separator: '; ' });
}
