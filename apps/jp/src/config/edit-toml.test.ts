import { describe, expect, it } from 'vitest';
import { TEMPLATE as INIT_CONFIG } from '../commands/init.ts';
import { editToml } from './edit-toml.ts';
import { parseConfigText } from './load-config.ts';
import { layerFromPath, mergeConfig } from './merge-config.ts';
import { parseKey, parseValue } from './parse-cfg-arg.ts';

/** What `jp config set KEY VALUE` does to a file's text. */
function set(text: string, key: string, value: string): string {
  const segments = parseKey(key, 'test');
  const next = mergeConfig(parseConfigText(text, 'test.toml'), layerFromPath(segments, parseValue(value)));
  return editToml(text, segments, parseValue(value), next, 'test.toml');
}

const commentLines = (text: string) => text.split('\n').filter((line) => line.trimStart().startsWith('#'));

describe('jp config set edits the file in place', () => {
  it('changes a value and nothing else: comments, order, blank lines, quoting, trailing comments stay', () => {
    const text = [
      '# my settings',
      "title = 'kept as written'",
      '',
      '[assistant]  # the model',
      'model = "echo"   # for now',
      'max_tokens = 1_000',
      '',
      '["odd.table"]',
      '"a key" = "x"',
      '',
    ].join('\n');
    const edited = set(text, 'assistant.model', 'anthropic/claude-sonnet-4-5');
    expect(edited).toBe(text.replace('model = "echo"   # for now', 'model = "anthropic/claude-sonnet-4-5"   # for now'));
  });

  it('adds a key to the table it belongs to, after what is there', () => {
    const text = '[assistant]\nmodel = "echo"\n\n[conversation]\n# declared\nattachments = ["a"]\n';
    expect(set(text, 'assistant.max_tokens', '200')).toBe('[assistant]\nmodel = "echo"\nmax_tokens = 200\n\n[conversation]\n# declared\nattachments = ["a"]\n');
  });

  it('adds a table nobody wrote as a section at the end, `[a]` or `[a.b]`, deeper keys dotted', () => {
    const text = '[assistant]\nmodel = "echo"\n';
    let edited = set(text, 'mcp.gh.command', 'github-mcp-server');
    edited = set(edited, 'mcp.gh.env_from.GITHUB_TOKEN', 'MY_GH_TOKEN');
    edited = set(edited, 'assistant.request.max_retries', '5');
    expect(edited.startsWith('[assistant]\nmodel = "echo"\n')).toBe(true);
    expect(edited).toBe('[assistant]\nmodel = "echo"\n\n[mcp.gh]\ncommand = "github-mcp-server"\nenv_from.GITHUB_TOKEN = "MY_GH_TOKEN"\n\n[assistant.request]\nmax_retries = 5\n');
    expect(parseConfigText(edited, 'x')).toEqual({
      assistant: { model: 'echo', request: { max_retries: 5 } },
      mcp: { gh: { command: 'github-mcp-server', env_from: { GITHUB_TOKEN: 'MY_GH_TOKEN' } } },
    });
  });

  it('edits inside an inline table and a dotted key where they are written', () => {
    const text = 'assistant.model = "echo" # dotted\n\n[mcp.fx]\ncommand = "node"\nenv = { A = "1" } # inline\n';
    let edited = set(text, 'assistant.model', 'x');
    edited = set(edited, 'mcp.fx.env.B', '${B}');
    expect(edited).toBe('assistant.model = "x" # dotted\n\n[mcp.fx]\ncommand = "node"\nenv = { A = "1", B = "${B}" } # inline\n');
  });

  it('keeps arrays of tables and a multi-line array with its comments', () => {
    const text = [
      '[[notes]]',
      'name = "one"',
      '[[notes]]',
      'name = "two"',
      '',
      '[mcp.fx]',
      'command = "node"',
      'args = [',
      '  "server.js", # the entry',
      '  "--stdio",',
      ']',
      '',
    ].join('\n');
    const edited = set(text, 'mcp.fx.cwd', 'srv');
    expect(edited).toBe(text.replace('  "--stdio",\n]\n', '  "--stdio",\n]\ncwd = "srv"\n'));
  });

  it('quotes what needs quoting and keeps the value exact', () => {
    const edited = set('', 'assistant.system_prompt', 'say "hi"\\nthen stop');
    expect(parseConfigText(edited, 'x')).toEqual({ assistant: { system_prompt: 'say "hi"\\nthen stop' } });
    expect(set('a = 1', 'b', '2')).toBe('a = 1\nb = 2');
  });

  it('keeps the line endings, and a comment written right above the next header with that header', () => {
    expect(set('x = 1\r\n[t] # c\r\ny = 2\r\n', 't.z', '3')).toBe('x = 1\r\n[t] # c\r\ny = 2\r\nz = 3\r\n');
    expect(set('[a]\nx = 1\n# about b\n[b]\ny = 2\n', 'a.z', '3')).toBe('[a]\nx = 1\nz = 3\n# about b\n[b]\ny = 2\n');
    // A line that starts with # inside a multi-line string is not a comment.
    expect(set('[a]\np = """\nhello\n# x"""\n[b]\n', 'a.z', '3')).toBe('[a]\np = """\nhello\n# x"""\nz = 3\n[b]\n');
  });

  it('adds to a table where it is defined: dotted keys at the top, an inline table (TOML 1.1 multi-line too)', () => {
    expect(set('assistant.model = "x"\n[mcp.f]\ncommand = "c"\n', 'assistant.max_tokens', '3')).toBe('assistant.model = "x"\nassistant.max_tokens = 3\n[mcp.f]\ncommand = "c"\n');
    expect(set('a = { x = 1,\n  y = { } }\n', 'a.y.q', '3')).toBe('a = { x = 1,\n  y = { q = 3 } }\n');
  });

  it('sets a table key by key, and refuses what it cannot write faithfully', () => {
    expect(set('[mcp.f]\ncommand = "c"\n', 'mcp.f', '{args=["a"], cwd="d"}')).toBe('[mcp.f]\ncommand = "c"\nargs = ["a"]\ncwd = "d"\n');
    expect(() => set('[[a]]\nx = 1\n', 'a.y', '2')).toThrow('cannot set a.y in test.toml: a is an array of tables; edit the file by hand');
    expect(() => set('[a.b]\nx = 1\n', 'a.b', '2')).toThrow('cannot set a.b in test.toml: a.b is a table there, set one of its keys; edit the file by hand');
  });

  it("keeps every comment of the file jp init writes after several sets", () => {
    let text = INIT_CONFIG;
    for (const [key, value] of [
      ['assistant.model', 'echo'],
      ['conversation.attachments', '["README.md", "src/"]'],
      ['conversation.lock_timeout_secs', '7'],
      ['assistant.model', 'anthropic/claude-sonnet-4-5'],
      ['mcp.everything.command', 'npx'],
      ['mcp.everything.args', '["-y", "@modelcontextprotocol/server-everything"]'],
    ] as const) {
      text = set(text, key, value);
    }
    expect(commentLines(text)).toEqual(commentLines(INIT_CONFIG));
    expect(parseConfigText(text, 'x')).toEqual({
      assistant: { model: 'anthropic/claude-sonnet-4-5' },
      conversation: { attachments: ['README.md', 'src/'], lock_timeout_secs: 7 },
      mcp: { everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] } },
    });
    // Each key lands in its own table, after that table's comments.
    expect(text.indexOf('model = "anthropic/claude-sonnet-4-5"')).toBeGreaterThan(text.indexOf('# model = '));
    expect(text.indexOf('lock_timeout_secs = 7')).toBeGreaterThan(text.indexOf('[conversation]'));
  });
});
