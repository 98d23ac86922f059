import * as z from 'zod';
import { CONFIG_KEY_DOCS } from './config-key-docs.ts';
import { configSchema } from './config-schema.ts';
import { configKeyPaths, keyPattern } from './config-keys.ts';
import { formatTomlValue } from './toml-value.ts';

const INTRO = `# Configuration keys

<!-- Generated from the configuration schema by \`pnpm run docs:config\`; a test checks it is current. -->

jp reads, lowest precedence first: its defaults, the user's file (\`$XDG_CONFIG_HOME/jp/config.toml\`,
else \`~/.config/jp/config.toml\`), the workspace's \`.jp/config.toml\`, the keys a conversation set
itself, and this command's \`-c KEY=VALUE\`. A conversation's own keys are what \`-m/--model\`,
\`--reasoning\`, \`--attach\`, \`jp attachment add|rm\` and \`jp config set --id\` stored in it; every
key it did not set follows the files as they are now. \`-c\` applies to the one command and is
never stored (RFD 014).

- \`jp config get KEY\` prints one value; \`jp config show [--id ID]\` prints every value and where it came from.
- \`jp config set [--user | --id ID] KEY VALUE\` and \`jp config unset [--user | --id ID] KEY\` change the
  workspace file, the user's file, or a conversation's own keys.
- A key is dotted words; a word with a dot or other punctuation is quoted as in TOML:
  \`providers.openai.models."gpt-4.1".context_window\`. Values are TOML (\`42\`, \`true\`,
  \`["a", "b"]\`, \`"text"\`); a bare word is a string.
- \`<provider>\`, \`<model>\`, \`<server>\`, \`<tool>\` and \`<NAME>\` stand for names you choose.
`;

/** The part of zod's JSON Schema the docs read: types, enums, defaults. */
interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  default?: unknown;
  format?: string;
}

function plural(words: string): string {
  return /^(string|integer|number|boolean)$/.test(words) ? `${words}s` : words;
}

/** A value's type in a few words: `integer`, `"ask" | "on" | "off"`, `array of strings`, `table of strings`. */
function typeWords(node: JsonSchema): string {
  if (node.enum !== undefined) return node.enum.map((value) => JSON.stringify(value)).join(' | ');
  if (node.anyOf !== undefined) return node.anyOf.map(typeWords).join(', or ');
  const type = Array.isArray(node.type) ? node.type.join(' | ') : node.type;
  if (type === 'array') return node.items === undefined ? 'array' : `array of ${plural(typeWords(node.items))}`;
  if (type === 'object') {
    if (node.properties !== undefined) return `{ ${Object.keys(node.properties).join(', ')} }`;
    const inner = typeof node.additionalProperties === 'object' && node.additionalProperties.type !== undefined ? typeWords(node.additionalProperties) : undefined;
    return inner === undefined ? 'table' : `table of ${plural(inner)}`;
  }
  if (type === 'string' && node.format === 'uri') return 'URL';
  return type ?? 'any value';
}

/** The JSON Schema at a key path (a placeholder walks into a table of names). */
function schemaAt(root: JsonSchema, path: readonly string[]): JsonSchema {
  let node = root;
  for (const segment of path) {
    const next = /^<.+>$/.test(segment) ? node.additionalProperties : node.properties?.[segment];
    if (typeof next !== 'object') throw new Error(`no schema at ${path.join('.')}`);
    node = next;
  }
  return node;
}

const cell = (text: string): string => text.replace(/\|/g, '\\|');

function defaultText(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0) return '';
  return `\`${cell(formatTomlValue(value))}\``;
}

/** docs/config.md: every key with its type, default and one line, a section for each top table. */
export function renderConfigReference(): string {
  const root = z.toJSONSchema(configSchema(), { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const sections = new Map<string, string[]>();
  for (const path of configKeyPaths()) {
    const name = keyPattern(path);
    const schema = schemaAt(root, path);
    const line = `| \`${cell(name)}\` | ${cell(typeWords(schema))} | ${defaultText(schema.default)} | ${cell(CONFIG_KEY_DOCS[name] ?? '')} |`;
    sections.set(path[0]!, [...(sections.get(path[0]!) ?? []), line]);
  }
  const out = [INTRO];
  for (const [top, rows] of sections) {
    out.push(`## \`[${top}]\``, '', '| key | type | default | what it does |', '| --- | --- | --- | --- |', ...rows, '');
  }
  return `${out.join('\n').trimEnd()}\n`;
}
