// Strict mode for json_schema structured outputs (`strict: true`), the rules OpenAI's 400s name:
// every object sets additionalProperties: false, every property is listed in `required`, and the root is
// an object. https://developers.openai.com/api/docs/guides/structured-outputs#supported-schemas
// Wording from OpenAI's 400s ("Invalid schema for response_format '<name>': In context=(…), …"), see README.

/**
 * @param {string[]} path
 */
const context = (path) => `(${path.map((part) => `'${part}'`).join(', ')}${path.length === 1 ? ',' : ''})`;

/**
 * The first strict-mode violation in a schema, or undefined.
 * @param {any} schema
 * @param {string} name
 * @returns {string | undefined}
 */
export function strictSchemaProblem(schema, name) {
  const prefix = `Invalid schema for response_format '${name}'`;
  if (schema?.type !== 'object') {
    return `${prefix}: schema must be a JSON Schema of 'type: "object"', got 'type: "${Array.isArray(schema?.type) ? schema.type.join('", "') : schema?.type}"'.`;
  }
  return walk(schema, [], prefix);
}

/**
 * @param {any} node
 * @param {string[]} path
 * @param {string} prefix
 * @returns {string | undefined}
 */
function walk(node, path, prefix) {
  if (node === null || typeof node !== 'object') return undefined;
  const types = Array.isArray(node.type) ? node.type : [node.type];
  if (types.includes('object') || node.properties !== undefined) {
    if (node.additionalProperties !== false) {
      return `${prefix}: In context=${context(path)}, 'additionalProperties' is required to be supplied and to be false.`;
    }
    const keys = Object.keys(node.properties ?? {});
    const required = Array.isArray(node.required) ? node.required : [];
    const missing = keys.find((key) => !required.includes(key));
    if (missing !== undefined) {
      return `${prefix}: In context=${context(path)}, 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing}'.`;
    }
    for (const key of keys) {
      const found = walk(node.properties[key], [...path, 'properties', key], prefix);
      if (found) return found;
    }
  }
  if (node.items) {
    const found = walk(node.items, [...path, 'items'], prefix);
    if (found) return found;
  }
  for (const keyword of ['anyOf', '$defs', 'definitions']) {
    const inner = node[keyword];
    const entries = Array.isArray(inner) ? inner.map((value, index) => [String(index), value]) : Object.entries(inner ?? {});
    for (const [key, value] of entries) {
      const found = walk(value, [...path, keyword, key], prefix);
      if (found) return found;
    }
  }
  return undefined;
}
