type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

function objectMeets(schema: Schema): boolean {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  return schema.additionalProperties === false && Object.keys(properties).every((key) => required.includes(key));
}

function meets(schema: unknown): boolean {
  if (!isSchema(schema)) return true;
  const isObject = schema.type === 'object' || (Array.isArray(schema.type) && schema.type.includes('object')) || isSchema(schema.properties);
  if (isObject && !objectMeets(schema)) return false;
  const children = [
    ...(isSchema(schema.properties) ? Object.values(schema.properties) : []),
    ...(isSchema(schema.$defs) ? Object.values(schema.$defs) : []),
    ...(isSchema(schema.definitions) ? Object.values(schema.definitions) : []),
    ...(Array.isArray(schema.anyOf) ? schema.anyOf : []),
    ...(Array.isArray(schema.items) ? schema.items : [schema.items]),
  ];
  return children.every(meets);
}

/**
 * Whether a JSON Schema meets OpenAI's strict structured-output rules
 * (developers.openai.com/api/docs/guides/structured-outputs, "Supported schemas"): the root is an
 * object, and every object, however deep, sets `additionalProperties: false` and lists every
 * property in `required`. `strict: true` is sent only then; another schema goes with
 * `strict: false` and is checked against the answer afterwards.
 */
export function meetsStrictSchema(schema: Record<string, unknown>): boolean {
  return schema.type === 'object' && meets(schema);
}
