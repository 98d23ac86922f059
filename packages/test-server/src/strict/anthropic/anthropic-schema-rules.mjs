// JSON Schema limits of Anthropic structured outputs (output_config.format):
// https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations
// "If you use an unsupported feature, you'll receive a 400 error with details." The page gives no
// exact text, so the stand-in's wording names the path and the keyword (see README).

const NOT_SUPPORTED = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'maxItems'];

/**
 * The first unsupported construct in a schema, or undefined.
 * @param {unknown} schema
 * @param {string} [path]
 * @returns {string | undefined}
 */
export function structuredSchemaProblem(schema, path = '$') {
  if (Array.isArray(schema)) {
    for (const [index, item] of schema.entries()) {
      const found = structuredSchemaProblem(item, `${path}[${index}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (schema === null || typeof schema !== 'object') return undefined;
  const node = /** @type {Record<string, unknown>} */ (schema);
  for (const keyword of NOT_SUPPORTED) {
    if (keyword in node) return `${path}: '${keyword}' is not supported`;
  }
  // Array minItems: only 0 and 1.
  if ('minItems' in node && node.minItems !== 0 && node.minItems !== 1) return `${path}: 'minItems' values other than 0 or 1 are not supported`;
  // additionalProperties must be false when given.
  if ('additionalProperties' in node && node.additionalProperties !== false) return `${path}: 'additionalProperties' must be false`;
  // External $ref is not supported.
  if (typeof node.$ref === 'string' && !node.$ref.startsWith('#')) return `${path}: external '$ref' is not supported`;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples') continue;
    const found = structuredSchemaProblem(value, `${path}.${key}`);
    if (found) return found;
  }
  return undefined;
}
