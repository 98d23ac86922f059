import { CONFIG_KEY_DOCS } from './config-key-docs.ts';
import { configKeys, keyPattern } from './config-keys.ts';
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

const cell = (text: string): string => text.replace(/\|/g, '\\|');

function defaultText(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0) return '';
  return `\`${cell(formatTomlValue(value))}\``;
}

/** docs/config.md: every key with its type, default and one line, a section for each top table. */
export function renderConfigReference(): string {
  const sections = new Map<string, string[]>();
  for (const key of configKeys()) {
    const name = keyPattern(key.path);
    const line = `| \`${cell(name)}\` | ${cell(key.type)} | ${defaultText(key.default)} | ${cell(CONFIG_KEY_DOCS[name] ?? '')} |`;
    const top = key.path[0]!;
    sections.set(top, [...(sections.get(top) ?? []), line]);
  }
  const out = [INTRO];
  for (const [top, rows] of sections) {
    out.push(`## \`[${top}]\``, '', '| key | type | default | what it does |', '| --- | --- | --- | --- |', ...rows, '');
  }
  return `${out.join('\n').trimEnd()}\n`;
}
