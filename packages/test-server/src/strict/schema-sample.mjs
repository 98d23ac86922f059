// A small value that satisfies a JSON schema, for the stand-ins' default answer to a structured-output
// request (so a client's own validation of the answer passes). Covers the shapes structured outputs allow.

/**
 * @param {any} schema
 * @param {any} [root]
 * @param {number} [depth]
 * @returns {unknown}
 */
export function sampleForSchema(schema, root = schema, depth = 0) {
  if (schema === null || typeof schema !== 'object' || depth > 8) return null;
  if (typeof schema.$ref === 'string' && schema.$ref.startsWith('#/')) {
    const target = schema.$ref.slice(2).split('/').reduce((/** @type {any} */ node, /** @type {string} */ key) => node?.[key], root);
    return sampleForSchema(target, root, depth + 1);
  }
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const options = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(options)) return sampleForSchema(options[0], root, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((/** @type {string} */ t) => t !== 'null') ?? 'null' : schema.type;
  switch (type) {
    case 'object': {
      /** @type {Record<string, unknown>} */
      const value = {};
      const properties = schema.properties ?? {};
      const required = Array.isArray(schema.required) ? schema.required : Object.keys(properties);
      for (const key of required) value[key] = sampleForSchema(properties[key] ?? {}, root, depth + 1);
      return value;
    }
    case 'array': {
      const count = typeof schema.minItems === 'number' ? schema.minItems : 0;
      return Array.from({ length: count }, () => sampleForSchema(schema.items ?? {}, root, depth + 1));
    }
    case 'string':
      return schema.format === 'date' ? '2026-01-01' : schema.format === 'date-time' ? '2026-01-01T00:00:00Z' : 'x';
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 0;
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return schema.properties ? sampleForSchema({ ...schema, type: 'object' }, root, depth + 1) : null;
  }
}
