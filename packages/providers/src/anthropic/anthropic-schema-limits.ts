type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keywords Anthropic's structured outputs refuse (platform.claude.com/docs/en/build-with-claude/structured-outputs, "JSON Schema limitations"). */
const UNSUPPORTED = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'maxItems'] as const;

function problem(schema: unknown, path: string): string | undefined {
  if (!isSchema(schema)) return undefined;
  for (const keyword of UNSUPPORTED) if (keyword in schema) return `${path}: ${keyword}`;
  if ('minItems' in schema && schema.minItems !== 0 && schema.minItems !== 1) return `${path}: minItems above 1`;
  if ('additionalProperties' in schema && schema.additionalProperties !== false) return `${path}: additionalProperties other than false`;
  if (typeof schema.$ref === 'string' && !schema.$ref.startsWith('#')) return `${path}: an external $ref`;
  const children: Array<[string, unknown]> = [
    ...(isSchema(schema.properties) ? Object.entries(schema.properties).map(([key, value]): [string, unknown] => [`${path}.${key}`, value]) : []),
    ...(isSchema(schema.$defs) ? Object.entries(schema.$defs).map(([key, value]): [string, unknown] => [`${path}.$defs.${key}`, value]) : []),
    ...(isSchema(schema.definitions) ? Object.entries(schema.definitions).map(([key, value]): [string, unknown] => [`${path}.definitions.${key}`, value]) : []),
    ...(Array.isArray(schema.anyOf) ? schema.anyOf.map((value, i): [string, unknown] => [`${path}.anyOf[${i}]`, value]) : []),
    ...(Array.isArray(schema.allOf) ? schema.allOf.map((value, i): [string, unknown] => [`${path}.allOf[${i}]`, value]) : []),
    ...(schema.items !== undefined ? [[`${path}[]`, schema.items] as [string, unknown]] : []),
  ];
  for (const [where, child] of children) {
    const found = problem(child, where);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * What in a JSON Schema Anthropic's native structured output does not take, or undefined when it
 * takes all of it: numeric and length bounds, `minItems` above 1, `additionalProperties` other than
 * `false`, an external `$ref`. Such a schema is not sent as `output_config.format`: the answer is
 * checked against it afterwards instead.
 */
export function anthropicSchemaProblem(schema: Record<string, unknown>): string | undefined {
  return problem(schema, '$');
}
