import { createAjv } from '../query/load-ajv.ts';
import type { ToolDefinition } from '@jp/providers';

type Validator = (args: Record<string, unknown>) => string | undefined;

const cache = new WeakMap<ToolDefinition, Validator>();

/**
 * Checks a model's arguments against the tool's JSON Schema. Returns what is wrong (for an error
 * result the model can read and correct), or `undefined` when they fit. A schema that does not
 * compile is not held against the model: the arguments pass.
 */
export async function checkToolArguments(definition: ToolDefinition, args: Record<string, unknown>): Promise<string | undefined> {
  let validator = cache.get(definition);
  if (validator === undefined) {
    const ajv = await createAjv();
    try {
      const validate = ajv.compile(definition.parameters);
      validator = (value) => (validate(value) ? undefined : ajv.errorsText(validate.errors, { dataVar: 'arguments', separator: '; ' }));
    } catch {
      validator = () => undefined;
    }
    cache.set(definition, validator);
  }
  return validator(args);
}
