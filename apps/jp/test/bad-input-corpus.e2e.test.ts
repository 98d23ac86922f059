import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSandbox, runJp, type JpResult } from './helpers/run-jp.ts';

/*
 * The bad-input contract (ARCHITECTURE §8, RFD 010), table-driven: many commands × many bad
 * inputs. Each case runs through the built binary, every other one with `-F json`, and must give the documented exit code, exactly one line on stderr (`jp: …`, or
 * one JSON error object), and leave every file of its sandbox byte for byte as it was — the
 * workspaces' `.jp/` and everything around them. Cases run a few at a time, each in a copy of
 * the sandbox of its own while it runs, so that a case that wrote anything is the one caught.
 */

const FIXTURE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../packages/attachments/src/mcp/__fixtures__/fixture-server.mjs');

/** The conversations of the sandbox, by role; the args of a case name them as `<A>`, `<B>`, …. */
type Role = 'A' | 'B' | 'C' | 'D' | 'E' | 'F' | 'G' | 'H' | 'I';

interface Case {
  name: string;
  args: string[];
  code: number;
  message: RegExp;
  /** The `code` of the JSON error, when the case pins it. */
  errorCode?: string;
  /** Piped to stdin. */
  input?: string;
  /** The user config directory to use instead of the sandbox's (`XDG_CONFIG_HOME`), under the sandbox. */
  xdg?: string;
  /** May be run with `-F json` (default true). */
  json?: boolean;
}

const { root, env } = makeSandbox('jp-bad-corpus-');
const template = path.join(root, 'template');
const ids = {} as Record<Role, string>;

/** Copies of the template, one per case running at once. */
const SANDBOXES = 3;
const free: string[] = [];
const waiting: Array<(dir: string) => void> = [];
async function takeSandbox(): Promise<string> {
  const dir = free.pop();
  if (dir !== undefined) return dir;
  return new Promise((resolve) => waiting.push(resolve));
}
function giveBack(dir: string): void {
  const next = waiting.shift();
  if (next) next(dir);
  else free.push(dir);
}

/** Every entry under `dir`: files by sha256, links by target, FIFOs and the like by kind (never opened). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (current: string): void => {
    for (const name of readdirSync(current).sort()) {
      const full = path.join(current, name);
      const rel = path.relative(dir, full);
      const stats = lstatSync(full);
      if (stats.isDirectory()) {
        out[`${rel}/`] = `dir ${stats.mode.toString(8)}`;
        walk(full);
      } else if (stats.isFile()) out[rel] = createHash('sha256').update(readFileSync(full)).digest('hex');
      else if (stats.isSymbolicLink()) out[rel] = `-> ${readlinkSync(full)}`;
      else out[rel] = `special ${stats.mode.toString(8)}`;
    }
  };
  walk(dir);
  return out;
}

async function jpIn(dir: string, args: string[], input?: string): Promise<JpResult> {
  const result = await runJp(args, { cwd: dir, env, input, timeoutMs: 60_000 });
  return result;
}

/** Builds the template sandbox through the binary, as a user would have left it. */
async function buildTemplate(): Promise<void> {
  const project = path.join(template, 'project');
  mkdirSync(path.join(project, 'only-ignored'), { recursive: true });
  mkdirSync(path.join(project, 'sub'), { recursive: true });
  const files: Record<string, string | Buffer> = {
    'ok.txt': 'fine\n',
    'g.txt': 'the one blob conversation G loses\n',
    'only-ignored/.gitignore': '*.log\n',
    'only-ignored/debug.log': 'noise\n',
    'sub/a.txt': 'a\n',
    'sub/b.txt': 'b\n',
    'big.txt': 'x'.repeat(600 * 1024),
    'schema-ok.json': '{"type":"object"}',
    'schema-bad.json': '{"type": "object",',
    'schema-array.json': '[]',
    'schema-invalid.json': '{"type": 12}',
    'big-schema.json': `{"description": "${'x'.repeat(1024 * 1024)}"}`,
  };
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(project, name), content);
  const run = async (args: string[], dir = project): Promise<JpResult> => {
    const result = await jpIn(dir, args);
    expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
    return result;
  };
  await run(['init']);
  const config = path.join(project, '.jp', 'config.toml');
  const server = (name: string, args: string[]) => `\n[mcp.${name}]\ncommand = ${JSON.stringify(process.execPath)}\nargs = ${JSON.stringify(args)}\n`;
  writeFileSync(config, `${readFileSync(config, 'utf8')}${server('fixture', [FIXTURE])}${server('broken', [FIXTURE, '--exit-on-init'])}`);
  const created = async (args: string[]): Promise<string> => {
    const result = await run(['-F', 'json', 'query', '--new', '-m', 'echo', ...args]);
    return JSON.parse(result.stdout.trim().split('\n').at(-1)!).conversation as string;
  };
  const conversationDir = (role: Role) => path.join(project, '.jp', 'conversations', ids[role]);
  const eventsFile = (role: Role) => path.join(conversationDir(role), 'events.jsonl');
  const lines = (role: Role) => readFileSync(eventsFile(role), 'utf8').split('\n');

  ids.A = await created(['--attach', 'ok.txt', 'hello']);
  await run(['query', '--id', ids.A, '-m', 'echo', 'again']);
  await run(['attachment', 'add', '--id', ids.A, 'sub/']);
  ids.B = await created(['--attach', 'ok.txt', 'locked']);
  writeFileSync(path.join(conversationDir('B'), 'lock'), JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() }));
  ids.C = await created(['damaged metadata']);
  writeFileSync(path.join(conversationDir('C'), 'metadata.json'), '{broken');
  ids.D = await created(['damaged line']);
  await run(['query', '--id', ids.D, '-m', 'echo', 'second']);
  writeFileSync(eventsFile('D'), lines('D').map((line, k) => (k === 1 ? 'this is not json' : line)).join('\n'));
  ids.E = await created(['renamed request']);
  writeFileSync(eventsFile('E'), lines('E').map((line) => line.replace('"type":"chat_request"', '"type":"chat_requestx"')).join('\n'));
  ids.F = await created(['damaged base config']);
  writeFileSync(path.join(conversationDir('F'), 'base-config.json'), '[1, 2');
  ids.G = await created(['--attach', 'g.txt', 'missing blob']);
  const blob = JSON.parse(lines('G').find((line) => line.includes('"chat_request"'))!).resources[0].$blob as string;
  rmSync(path.join(project, '.jp', 'blobs', blob.slice(0, 2), blob));
  ids.H = await created(['events file is a directory']);
  rmSync(eventsFile('H'));
  mkdirSync(eventsFile('H'));
  ids.I = await created(['renamed turn start']);
  await run(['query', '--id', ids.I, '-m', 'echo', 'second']);
  const second = lines('I').findLastIndex((line) => line.includes('"turn_start"'));
  writeFileSync(eventsFile('I'), lines('I').map((line, k) => (k === second ? line.replace('"turn_start"', '"turn_startx"') : line)).join('\n'));
  await run(['conversation', 'use', ids.A]);

  // Workspaces with a bad configuration file, and other places that are not workspaces.
  const workspace = async (name: string, configText?: string): Promise<string> => {
    const dir = path.join(template, name);
    mkdirSync(dir, { recursive: true });
    await run(['init'], dir);
    if (configText !== undefined) writeFileSync(path.join(dir, '.jp', 'config.toml'), configText);
    return dir;
  };
  await workspace('bad-toml', '[assistant\nmodel = "echo"\n');
  await workspace('bad-key', '[assistant]\nmodle = "echo"\n');
  await workspace('bad-value', '[conversation.attachment.cmd]\ntimeout_secs = 3000000\n');
  await workspace('bad-type', '[assistant]\nmax_tokens = "many"\n');
  const configDir = await workspace('config-dir');
  rmSync(path.join(configDir, '.jp', 'config.toml'));
  mkdirSync(path.join(configDir, '.jp', 'config.toml'));
  const lockedBlobs = await workspace('locked-blobs');
  writeFileSync(path.join(lockedBlobs, '.jp', 'blobs.lock'), JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() }));
  mkdirSync(path.join(template, 'jp-file'));
  writeFileSync(path.join(template, 'jp-file', '.jp'), 'not a directory\n');
  mkdirSync(path.join(template, 'empty'));
  for (const [name, text] of [
    ['xdg-bad-toml', 'assistant = [\n'],
    ['xdg-bad-key', '[conversation]\nattachmnets = []\n'],
    ['xdg-bad-value', '[conversation]\nlock_timeout_secs = 1e9\n'],
  ] as const) {
    mkdirSync(path.join(template, name, 'jp'), { recursive: true });
    writeFileSync(path.join(template, name, 'jp', 'config.toml'), text);
  }
}

/** FIFOs cannot be copied: each sandbox makes its own. */
function makeFifos(dir: string): void {
  execFileSync('mkfifo', [path.join(dir, 'project', 'pipe'), path.join(dir, 'project', 'schema.fifo')]);
}

beforeAll(async () => {
  await buildTemplate();
  for (let k = 0; k < SANDBOXES; k++) {
    const dir = path.join(root, `sandbox-${k}`);
    cpSync(template, dir, { recursive: true });
    makeFifos(dir);
    free.push(dir);
  }
}, 120_000);

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

// ─── the cases ──────────────────────────────────────────────────────────────────────────────

const UNKNOWN_ID = 'zzzzzzzzz-zzzzz';
const UNKNOWN = /no conversation zzzzzzzzz-zzzzz/;

/** Commander's errors: one line, exit 2, and the command whose help to read. */
const parserCases: Case[] = [
  { name: 'an unknown query option', args: ['query', '--bogus', 'x'], code: 2, message: /unknown option '--bogus'; see `jp query --help`/, errorCode: 'unknown_option' },
  { name: 'a misspelt query option', args: ['query', '--atach', 'ok.txt', 'x'], code: 2, message: /unknown option '--atach' \(did you mean --attach\?\)/ },
  { name: 'an unknown global option', args: ['--bogus', 'query', 'x'], code: 2, message: /unknown option '--bogus'; see `jp --help`/ },
  { name: 'an unknown command', args: ['bogus'], code: 2, message: /unknown command 'bogus'/, errorCode: 'unknown_command' },
  { name: 'a misspelt command', args: ['quer', 'x'], code: 2, message: /unknown command 'quer' \(did you mean query\?\)/ },
  { name: 'an unknown conversation subcommand', args: ['conversation', 'bogus'], code: 2, message: /unknown command 'bogus'; see `jp conversation --help`/ },
  { name: 'an unknown attachment subcommand', args: ['attachment', 'bogus'], code: 2, message: /unknown command 'bogus'/ },
  { name: 'an unknown config subcommand', args: ['config', 'bogus'], code: 2, message: /unknown command 'bogus'/ },
  { name: 'an unknown mcp subcommand', args: ['mcp', 'bogus'], code: 2, message: /unknown command 'bogus'/ },
  { name: '--id without its value', args: ['query', '--id'], code: 2, message: /option '--id <id>' argument missing/, errorCode: 'option_missing_argument' },
  { name: '-m without its value', args: ['query', '-m'], code: 2, message: /option '-m, --model <id>' argument missing/ },
  { name: '--attach without its value', args: ['query', '--attach'], code: 2, message: /option '-a, --attach <url>' argument missing/ },
  { name: '--schema without its value', args: ['query', '--schema'], code: 2, message: /option '-s, --schema <json\|@file>' argument missing/ },
  { name: '--title without its value', args: ['query', '--new', '--title'], code: 2, message: /--title <title>' argument missing/ },
  { name: '-c without its value', args: ['-c'], code: 2, message: /option '-c, --cfg <key=value>' argument missing/ },
  { name: '-w without its value', args: ['-w'], code: 2, message: /option '-w, --workspace <dir>' argument missing/ },
  { name: 'an unknown format', args: ['-F', 'xml', 'query', 'x'], code: 2, message: /argument 'xml' is invalid\. Allowed choices are text, json/, json: false },
  { name: 'show with two ids', args: ['conversation', 'show', 'a', 'b'], code: 2, message: /too many arguments for 'show'.*see `jp conversation show --help`/ },
  { name: 'rm without an id', args: ['conversation', 'rm'], code: 2, message: /missing required argument 'id'/, errorCode: 'missing_argument' },
  { name: 'use without an id', args: ['conversation', 'use'], code: 2, message: /missing required argument 'id'/ },
  { name: 'fork --until-turn without its value', args: ['conversation', 'fork', '--until-turn'], code: 2, message: /--until-turn <n>' argument missing/ },
  { name: 'ls --limit without its value', args: ['conversation', 'ls', '--limit'], code: 2, message: /--limit <n>' argument missing/ },
  { name: 'attachment add without a URL', args: ['attachment', 'add'], code: 2, message: /missing required argument 'url'/ },
  { name: 'attachment rm without a target', args: ['attachment', 'rm'], code: 2, message: /missing required argument 'url-or-index'/ },
  { name: 'config set without a value', args: ['config', 'set', 'assistant.model'], code: 2, message: /missing required argument 'value'/ },
  { name: 'config set without anything', args: ['config', 'set'], code: 2, message: /missing required argument 'key'/ },
  { name: 'completion without a shell', args: ['completion'], code: 2, message: /missing required argument 'shell'/ },
  { name: 'mcp resources without a server', args: ['mcp', 'resources'], code: 2, message: /missing required argument 'server'/ },
  { name: 'init with two directories', args: ['init', 'a', 'b'], code: 2, message: /too many arguments for 'init'/ },
  { name: 'gc with an argument', args: ['gc', 'now'], code: 2, message: /too many arguments for 'gc'/ },
  { name: 'conversation ls with an argument', args: ['conversation', 'ls', 'all'], code: 2, message: /too many arguments for 'ls'/ },
  { name: 'an option of another command', args: ['conversation', 'ls', '--attach', 'x'], code: 2, message: /unknown option '--attach'/ },
];

/** Ids that name nothing, and selections that are not allowed. */
const selectionCases: Case[] = [
  { name: 'query with an unknown id', args: ['query', '--id', UNKNOWN_ID, 'x'], code: 2, message: UNKNOWN, errorCode: 'unknown_conversation' },
  { name: 'query with an ambiguous id', args: ['query', '--id', '0', 'x'], code: 2, message: /conversation id 0 is ambiguous/, errorCode: 'ambiguous_conversation' },
  { name: 'query with --new and --id', args: ['query', '--new', '--id', '<A>', 'x'], code: 2, message: /--new and --id exclude each other/ },
  { name: 'query with nothing to ask', args: ['query', '-m', 'echo'], code: 2, message: /nothing to ask/, errorCode: 'empty_query' },
  { name: 'query --attach - with nothing piped', args: ['query', '-m', 'echo', '--attach', '-', 'x'], code: 2, message: /--attach - reads stdin, but nothing is piped in/ },
  { name: 'show of an unknown id', args: ['conversation', 'show', UNKNOWN_ID], code: 2, message: UNKNOWN },
  { name: 'use of an unknown id', args: ['conversation', 'use', UNKNOWN_ID], code: 2, message: UNKNOWN },
  { name: 'rm of an unknown id', args: ['conversation', 'rm', '--yes', UNKNOWN_ID], code: 2, message: UNKNOWN },
  { name: 'fork of an unknown id', args: ['conversation', 'fork', UNKNOWN_ID], code: 2, message: UNKNOWN },
  { name: 'path of an unknown id', args: ['conversation', 'path', UNKNOWN_ID], code: 2, message: UNKNOWN },
  { name: 'attachment ls of an unknown id', args: ['attachment', 'ls', '--id', UNKNOWN_ID], code: 2, message: UNKNOWN },
  { name: 'attachment add to an unknown id', args: ['attachment', 'add', '--id', UNKNOWN_ID, 'ok.txt'], code: 2, message: UNKNOWN },
  { name: 'attachment rm from an unknown id', args: ['attachment', 'rm', '--id', UNKNOWN_ID, '1'], code: 2, message: UNKNOWN },
  { name: 'config show of an unknown id', args: ['config', 'show', '--id', UNKNOWN_ID], code: 2, message: UNKNOWN },
  { name: 'an id that is a path', args: ['conversation', 'show', '../../etc'], code: 2, message: /no conversation \.\.\/\.\.\/etc/ },
  { name: 'rm without --yes and no terminal', args: ['conversation', 'rm', '<A>'], code: 2, message: /without confirmation; pass --yes/, errorCode: 'confirmation_required' },
  { name: 'fork past the last turn', args: ['conversation', 'fork', '<A>', '--until-turn', '9'], code: 2, message: /--until-turn must be a turn of/ },
  { name: 'fork with a turn that is not a number', args: ['conversation', 'fork', '<A>', '--until-turn', 'two'], code: 2, message: /--until-turn/ },
  { name: 'fork with --until-turn and --no-turns', args: ['conversation', 'fork', '<A>', '--until-turn', '0', '--no-turns'], code: 2, message: /exclude each other/ },
  { name: 'ls with a limit that is not a number', args: ['conversation', 'ls', '--limit', 'ten'], code: 2, message: /--limit takes a whole number of at least 1, not ten/ },
  { name: 'ls with a limit of 0', args: ['conversation', 'ls', '--limit', '0'], code: 2, message: /--limit takes a whole number of at least 1, not 0$/ },
  { name: 'ls with a negative limit', args: ['conversation', 'ls', '--limit', '-1'], code: 2, message: /--limit takes a whole number/ },
  { name: 'attachment rm of an index out of range', args: ['attachment', 'rm', '--id', '<A>', '99'], code: 2, message: /99/ },
  { name: 'attachment rm of an undeclared URL', args: ['attachment', 'rm', '--id', '<A>', 'nope.txt'], code: 2, message: /nope\.txt is not a declared attachment/, errorCode: 'unknown_attachment' },
  { name: 'completion for an unknown shell', args: ['completion', 'tcsh'], code: 2, message: /no completion for tcsh; choose bash, zsh or fish/ },
  { name: 'mcp resources of an unknown server', args: ['mcp', 'resources', 'nope'], code: 2, message: /no MCP server "nope" is configured/, errorCode: 'mcp_unknown_server' },
];

/** Workspaces that are not there, and `jp init` where it cannot make one. */
const workspaceCases: Case[] = [
  { name: 'query outside a workspace', args: ['-w', '../empty', 'query', '--new', '-m', 'echo', 'x'], code: 2, message: /is not a jp workspace.*jp init/, errorCode: 'no_workspace' },
  { name: '-w to a directory that does not exist', args: ['-w', '../nowhere', 'conversation', 'ls'], code: 2, message: /workspace directory \.\.\/nowhere does not exist/ },
  { name: '-w to a file', args: ['-w', 'ok.txt', 'conversation', 'ls'], code: 2, message: /ok\.txt is not a jp workspace/ },
  { name: '-w to a directory whose .jp is a file', args: ['-w', '../jp-file', 'query', '--new', '-m', 'echo', 'x'], code: 2, message: /not a jp workspace/ },
  { name: 'init under /proc', args: ['init', '/proc/jp-init-test'], code: 1, message: /cannot create \/proc\/jp-init-test: no such file or directory/, errorCode: 'init_failed' },
  { name: 'init two levels under /proc', args: ['init', '/proc/jp-a/b'], code: 1, message: /cannot create \/proc\/jp-a\/b/ },
  { name: 'init of a /proc file', args: ['init', '/proc/cpuinfo'], code: 2, message: /\/proc\/cpuinfo is not a directory/, errorCode: 'not_a_directory' },
  { name: 'init of a regular file', args: ['init', 'ok.txt'], code: 2, message: /ok\.txt is not a directory/ },
  { name: 'init under a regular file', args: ['init', 'ok.txt/deeper'], code: 2, message: /ok\.txt is not a directory/ },
  { name: 'init under a device', args: ['init', '/dev/null/x'], code: 2, message: /\/dev\/null is not a directory/ },
  { name: 'init where .jp is a regular file', args: ['init', '../jp-file'], code: 2, message: /\.\.\/jp-file\/\.jp exists and is not a directory/ },
  { name: 'init of a FIFO', args: ['init', 'pipe'], code: 2, message: /pipe is not a directory/ },
];

/** `-c` values and keys: each a usage error naming the key and the reason (after the echoed value). */
const cfgValues: Array<[string, RegExp]> = [
  ['assistant.model', /malformed -c "assistant\.model": expected KEY=VALUE/],
  ['=echo', /malformed -c "=echo"/],
  ['assistant..model=echo', /malformed key in -c/],
  ['assistant.modle=echo', /unknown key assistant\.modle/],
  ['nosuch.key=1', /unknown key nosuch/],
  ['assistant.max_tokens=many', /": assistant\.max_tokens: Invalid input: expected number, received string$/],
  ['assistant.max_tokens=-1', /": assistant\.max_tokens: Too small: expected number to be >0$/],
  ['assistant.request.max_retries=11', /": assistant\.request\.max_retries: Too big: expected number to be <=10$/],
  ['assistant.model=', /": assistant\.model: Too small: expected string to have >=1 characters$/],
  ['conversation.attachment.size_policy=maybe', /": conversation\.attachment\.size_policy: Invalid option: expected one of "allow"\|"truncate"\|"reject"\|"ask"$/],
  ['conversation.attachment.max_bytes=0', /": conversation\.attachment\.max_bytes: Too small: expected number to be >0$/],
  ['conversation.attachment.max_bytes=1.5', /": conversation\.attachment\.max_bytes: Invalid input: expected int, received number$/],
  ['conversation.attachment.cmd.timeout_secs=3000000', /conversation\.attachment\.cmd\.timeout_secs: at most 2147483 seconds/],
  ['conversation.attachment.http.timeout_secs=3000000', /conversation\.attachment\.http\.timeout_secs: at most 2147483 seconds/],
  ['conversation.lock_timeout_secs=3000000', /conversation\.lock_timeout_secs: at most 2147483 seconds/],
  ['conversation.lock_timeout_secs=-1', /": conversation\.lock_timeout_secs: Too small: expected number to be >=0$/],
  ['conversation.attachment.cmd.timeout_secs=inf', /": conversation\.attachment\.cmd\.timeout_secs: Invalid input: expected number, received Infinity$/],
  ['conversation.attachment.http.timeout_secs=nan', /": conversation\.attachment\.http\.timeout_secs: Invalid input: expected number, received NaN$/],
  ['tools.t={command="x", description="x", timeout_secs=3000000}', /tools\.t\.timeout_secs: at most 2147483 seconds/],
  ['mcp.m={command="x", startup_timeout_secs=3000000}', /mcp\.m\.startup_timeout_secs: at most 2147483 seconds/],
  ['mcp.m={command="x", request_timeout_secs=2147484}', /mcp\.m\.request_timeout_secs: at most 2147483 seconds/],
  ['providers.openai.base_url=not a url', /": providers\.openai\.base_url: Invalid URL$/],
  ['providers.openai.api_key_env=1BAD', /": providers\.openai\.api_key_env: must be an environment variable name \(letters, digits and _\)$/],
  ['conversation.attachments="ok.txt"', /": conversation\.attachments: Invalid input: expected array, received string$/],
];
const cfgCases: Case[] = cfgValues.flatMap(([value, message]): Case[] => [
  { name: `-c ${value} on query`, args: ['-c', value, 'query', '-m', 'echo', 'x'], code: 2, message },
  { name: `-c ${value} on config show`, args: ['-c', value, 'config', 'show'], code: 2, message },
]);

/** Configuration files that are damaged or wrong. */
const configFileCases: Case[] = [
  { name: 'a workspace config that is not TOML', args: ['-w', '../bad-toml', 'query', '--new', '-m', 'echo', 'x'], code: 2, message: /^(jp: )?\.jp\/config\.toml:1:11: illegal character in key; fix the file$/ },
  { name: 'a workspace config that is not TOML, config show', args: ['-w', '../bad-toml', 'config', 'show'], code: 2, message: /^(jp: )?\.jp\/config\.toml:1:11: illegal character in key; fix the file$/ },
  { name: 'a workspace config with an unknown key', args: ['-w', '../bad-key', 'query', '--new', '-m', 'echo', 'x'], code: 2, message: /invalid configuration in \.jp\/config\.toml: unknown key assistant\.modle/ },
  { name: 'a workspace config with a timeout too long', args: ['-w', '../bad-value', 'query', '--new', '-m', 'echo', 'x'], code: 2, message: /\.jp\/config\.toml: conversation\.attachment\.cmd\.timeout_secs: at most 2147483 seconds/ },
  { name: 'a workspace config with a value of the wrong type', args: ['-w', '../bad-type', 'config', 'show'], code: 2, message: /assistant\.max_tokens/ },
  { name: 'a workspace config that is a directory', args: ['-w', '../config-dir', 'query', '--new', '-m', 'echo', 'x'], code: 2, message: /cannot read \.jp\/config\.toml/ },
  { name: 'a user config that is not TOML', args: ['query', '--new', '-m', 'echo', 'x'], xdg: 'xdg-bad-toml', code: 2, message: /^(jp: )?\/\S+\/jp\/config\.toml:2:1: invalid value; fix the file$/ },
  { name: 'a user config that is not TOML, config show', args: ['config', 'show'], xdg: 'xdg-bad-toml', code: 2, message: /^(jp: )?\/\S+\/jp\/config\.toml:2:1: invalid value; fix the file$/ },
  { name: 'a user config with an unknown key', args: ['query', '-m', 'echo', 'x'], xdg: 'xdg-bad-key', code: 2, message: /unknown key conversation\.attachmnets/ },
  { name: 'a user config with a lock timeout too long', args: ['gc'], xdg: 'xdg-bad-value', code: 2, message: /conversation\.lock_timeout_secs: at most 2147483 seconds/ },
  { name: 'config set of an unknown key', args: ['config', 'set', 'assistant.modle', 'echo'], code: 2, message: /unknown key assistant\.modle/ },
  { name: 'config set of a timeout too long', args: ['config', 'set', 'conversation.attachment.cmd.timeout_secs', '3000000'], code: 2, message: /at most 2147483 seconds/ },
  { name: 'config set of a malformed key', args: ['config', 'set', 'bad key', 'x'], code: 2, message: /malformed key/ },
  { name: 'config set of a wrong type', args: ['config', 'set', 'conversation.attachment.max_files', 'many'], code: 2, message: /conversation\.attachment\.max_files/ },
];

/** `--schema`: inline JSON and `@FILE` of every wrong kind. */
const schemaCases: Case[] = [
  { name: '--schema that is not JSON', args: ['query', '-m', 'echo', '-s', '{', 'x'], code: 2, message: /--schema is not valid JSON/, errorCode: 'invalid_schema' },
  { name: '--schema that is an array', args: ['query', '-m', 'echo', '-s', '[]', 'x'], code: 2, message: /--schema must be a JSON Schema object/ },
  { name: '--schema that is not a valid schema', args: ['query', '-m', 'echo', '-s', '{"type": 12}', 'x'], code: 2, message: /--schema is not a valid JSON Schema/ },
  { name: '--schema @ a missing file', args: ['query', '-m', 'echo', '-s', '@missing.json', 'x'], code: 2, message: /cannot read the schema file missing\.json: no such file/ },
  { name: '--schema @ a directory', args: ['query', '-m', 'echo', '-s', '@sub', 'x'], code: 2, message: /the schema file sub is a directory/ },
  { name: '--schema @ a FIFO', args: ['query', '-m', 'echo', '-s', '@schema.fifo', 'x'], code: 2, message: /the schema file schema\.fifo is not a regular file/ },
  { name: '--schema @/dev/zero', args: ['query', '-m', 'echo', '-s', '@/dev/zero', 'x'], code: 2, message: /\/dev\/zero is not a regular file/ },
  { name: '--schema @/dev/urandom', args: ['query', '-m', 'echo', '-s', '@/dev/urandom', 'x'], code: 2, message: /\/dev\/urandom is not a regular file/ },
  { name: '--schema @/dev/null', args: ['query', '-m', 'echo', '-s', '@/dev/null', 'x'], code: 2, message: /\/dev\/null is not a regular file/ },
  { name: '--schema @/dev/stdin', args: ['query', '-m', 'echo', '-s', '@/dev/stdin', 'x'], code: 2, message: /\/dev\/stdin is not a regular file/ },
  { name: '--schema @ a file over 1 MiB', args: ['query', '-m', 'echo', '-s', '@big-schema.json', 'x'], code: 2, message: /big-schema\.json is over 1048576 bytes/ },
  { name: '--schema @ a file that is not JSON', args: ['query', '-m', 'echo', '-s', '@schema-bad.json', 'x'], code: 2, message: /the schema file schema-bad\.json is not valid JSON/ },
  { name: '--schema @ an array file', args: ['query', '-m', 'echo', '-s', '@schema-array.json', 'x'], code: 2, message: /must be a JSON Schema object/ },
  { name: '--schema @ an invalid schema file', args: ['query', '-m', 'echo', '-s', '@schema-invalid.json', 'x'], code: 2, message: /not a valid JSON Schema/ },
  { name: '--schema @/proc/cpuinfo', args: ['query', '-m', 'echo', '-s', '@/proc/cpuinfo', 'x'], code: 2, message: /the schema file \/proc\/cpuinfo is not valid JSON/ },
  { name: '--schema @/proc/self/mem', args: ['query', '-m', 'echo', '-s', '@/proc/self/mem', 'x'], code: 2, message: /cannot read the schema file \/proc\/self\/mem: EIO/ },
  { name: '--schema @ nothing', args: ['query', '-m', 'echo', '-s', '@', 'x'], code: 2, message: /the schema file {2}is a directory|schema file/ },
];

/** Attachments that cannot be resolved: exit 4, nothing stored. */
const attach = (target: string, ...more: string[]): string[] => ['query', '-m', 'echo', ...more, '--attach', target, 'x'];
const attachmentCases: Case[] = [
  { name: 'a missing file', args: attach('nope.txt'), code: 4, message: /no such file or directory: nope\.txt/, errorCode: 'file_not_found' },
  { name: 'a missing file in a new conversation', args: ['query', '--new', '-m', 'echo', '--attach', 'ok.txt', '--attach', 'gone.txt', 'x'], code: 4, message: /gone\.txt/ },
  { name: 'a glob matching nothing', args: attach('src/**/*.rs'), code: 4, message: /src\/\*\*\/\*\.rs/ },
  { name: 'a directory with nothing left after .gitignore', args: attach('only-ignored/'), code: 4, message: /only-ignored/ },
  { name: 'a FIFO', args: attach('pipe'), code: 4, message: /pipe is not a regular file/, errorCode: 'file_not_regular' },
  { name: '/dev/null', args: attach('/dev/null'), code: 4, message: /\/dev\/null is not a regular file/ },
  { name: '/dev/zero', args: attach('/dev/zero'), code: 4, message: /\/dev\/zero is not a regular file/ },
  { name: '/dev/urandom', args: attach('/dev/urandom'), code: 4, message: /\/dev\/urandom is not a regular file/ },
  { name: '/proc/self/mem', args: attach('/proc/self/mem'), code: 4, message: /cannot read \/proc\/self\/mem: the system refused the read \(EIO\)/ },
  { name: 'a /proc file over the limit it said it was under', args: attach('/proc/self/smaps', '-c', 'conversation.attachment.max_bytes=100'), code: 4, message: /\/proc\/self\/smaps holds more than 100 bytes/, errorCode: 'file_too_large' },
  { name: 'a file over the size limit (ask without a terminal)', args: attach('big.txt'), code: 4, message: /big\.txt is 614400 bytes, over the limit of 524288 bytes/ },
  { name: 'a file over the size limit (reject)', args: attach('big.txt', '-c', 'conversation.attachment.size_policy=reject'), code: 4, message: /big\.txt is 614400 bytes/ },
  { name: 'a directory over the file limit', args: attach('sub/', '-c', 'conversation.attachment.max_files=1'), code: 4, message: /sub\// },
  { name: 'stdin over the size limit', args: attach('-'), input: 'y'.repeat(600 * 1024), code: 4, message: /stdin \(--attach -\) is 614400 bytes, over the limit of 524288 bytes/ },
  { name: 'stdin over a small limit', args: attach('-', '-c', 'conversation.attachment.max_bytes=10', '-c', 'conversation.attachment.size_policy=reject'), input: 'more than ten bytes', code: 4, message: /stdin \(--attach -\) is 19 bytes, over the limit of 10 bytes/ },
  { name: 'a file URL to nothing', args: attach('file:///nonexistent/x.txt'), code: 4, message: /nonexistent/ },
  { name: 'an unknown scheme', args: attach('gopher://example.com/x'), code: 4, message: /gopher/ },
  { name: 'an http URL nobody answers', args: attach('http://127.0.0.1:9/x'), code: 4, message: /127\.0\.0\.1:9/ },
  { name: 'a malformed http URL', args: attach('http://'), code: 4, message: /http:/ },
  { name: 'a command that does not exist', args: attach('cmd:jp-no-such-command-xyz'), code: 4, message: /jp-no-such-command-xyz/ },
  { name: 'a command that fails', args: attach('cmd:false'), code: 4, message: /cmd:false/ },
  { name: 'a command that times out', args: attach('cmd:sleep 5', '-c', 'conversation.attachment.cmd.timeout_secs=0.2'), code: 4, message: /timed out after/, errorCode: 'cmd_timeout' },
  { name: 'an empty command', args: attach('cmd:'), code: 4, message: /cmd:/ },
  { name: 'an MCP server that is not configured', args: attach('mcp+nope+demo://x'), code: 4, message: /nope/ },
  { name: 'an MCP server that exits at start', args: attach('mcp+broken+fixture://docs/readme'), code: 4, message: /broken/ },
  { name: 'an MCP resource the server does not have', args: attach('mcp+fixture+fixture://missing'), code: 4, message: /fixture:\/\/missing/ },
  { name: 'a declared attachment that is missing', args: ['-c', 'conversation.attachments=["declared-nope.txt"]', 'query', '--new', '-m', 'echo', 'x'], code: 4, message: /declared-nope\.txt/ },
  { name: 'attachment add of a scheme jp does not know', args: ['attachment', 'add', 'gopher://example.com/x'], code: 4, message: /gopher/ },
];

/** Conversations whose files are damaged: the error names the file, nothing is written. */
const damageCases: Case[] = [
  { name: 'query on a damaged metadata.json', args: ['query', '--id', '<C>', '-m', 'echo', 'x'], code: 1, message: /metadata\.json is missing or damaged.*repair it/, errorCode: 'damaged_conversation' },
  { name: 'query with an attachment on a damaged metadata.json', args: ['query', '--id', '<C>', '-m', 'echo', '--attach', 'ok.txt', 'x'], code: 1, message: /metadata\.json is missing or damaged/ },
  { name: 'attachment add on a damaged metadata.json', args: ['attachment', 'add', '--id', '<C>', 'ok.txt'], code: 1, message: /metadata\.json is missing or damaged/ },
  { name: 'show of a damaged metadata.json', args: ['conversation', 'show', '<C>'], code: 1, message: /metadata\.json is missing or damaged/ },
  { name: 'fork of a damaged metadata.json', args: ['conversation', 'fork', '<C>'], code: 1, message: /metadata\.json is missing or damaged/ },
  { name: 'query on a damaged line', args: ['query', '--id', '<D>', '-m', 'echo', 'x'], code: 1, message: /events\.jsonl line 2 is damaged \(not valid JSON\)/ },
  { name: 'show of a damaged line', args: ['conversation', 'show', '<D>'], code: 1, message: /events\.jsonl line 2 is damaged/ },
  { name: 'fork of a damaged line', args: ['conversation', 'fork', '<D>'], code: 1, message: /events\.jsonl line 2 is damaged/ },
  { name: 'attachment ls of a damaged line', args: ['attachment', 'ls', '--id', '<D>'], code: 1, message: /events\.jsonl line 2 is damaged/ },
  { name: 'config show of a damaged line', args: ['config', 'show', '--id', '<D>'], code: 1, message: /events\.jsonl line 2 is damaged/ },
  { name: 'query on a renamed chat_request', args: ['query', '--id', '<E>', '-m', 'echo', 'x'], code: 1, message: /events\.jsonl line \d+ is damaged \(an event of unknown type "chat_requestx" in turn 0, which has no chat_request/ },
  { name: 'show of a renamed chat_request', args: ['conversation', 'show', '<E>'], code: 1, message: /"chat_requestx"/ },
  { name: 'fork of a renamed chat_request', args: ['conversation', 'fork', '<E>'], code: 1, message: /"chat_requestx"/ },
  { name: 'attachment ls of a renamed chat_request', args: ['attachment', 'ls', '--id', '<E>'], code: 1, message: /"chat_requestx"/ },
  { name: 'query on a renamed turn_start', args: ['query', '--id', '<I>', '-m', 'echo', 'x'], code: 1, message: /"turn_startx" followed by a chat_request in turn 0/ },
  { name: 'show of a renamed turn_start', args: ['conversation', 'show', '<I>'], code: 1, message: /"turn_startx"/ },
  { name: 'query on a damaged base-config.json', args: ['query', '--id', '<F>', '-m', 'echo', 'x'], code: 1, message: /base-config\.json is damaged/ },
  { name: 'config show of a damaged base-config.json', args: ['config', 'show', '--id', '<F>'], code: 1, message: /base-config\.json is damaged/ },
  { name: 'query on a conversation missing a blob', args: ['query', '--id', '<G>', '-m', 'echo', 'x'], code: 1, message: /which is missing/ },
  { name: 'show of a conversation missing a blob', args: ['conversation', 'show', '<G>'], code: 1, message: /which is missing/ },
  { name: 'query on an events.jsonl that is a directory', args: ['query', '--id', '<H>', '-m', 'echo', 'x'], code: 1, message: /cannot read \.jp\/conversations\/.*\/events\.jsonl: EISDIR/ },
  { name: 'show of an events.jsonl that is a directory', args: ['conversation', 'show', '<H>'], code: 1, message: /cannot read .*events\.jsonl: EISDIR/ },
];

/** Conversations and stores another process holds: exit 5 naming the holder. */
const lockCases: Case[] = [
  { name: 'query on a locked conversation', args: ['-c', 'conversation.lock_timeout_secs=0', 'query', '--id', '<B>', '-m', 'echo', 'x'], code: 5, message: /is locked by process \d+/, errorCode: 'conversation_locked' },
  { name: 'query with an attachment on a locked conversation', args: ['-c', 'conversation.lock_timeout_secs=0', 'query', '--id', '<B>', '-m', 'echo', '--attach', 'ok.txt', 'x'], code: 5, message: /is locked by process/ },
  { name: 'attachment add on a locked conversation', args: ['-c', 'conversation.lock_timeout_secs=0', 'attachment', 'add', '--id', '<B>', 'sub/'], code: 5, message: /is locked by process/ },
  { name: 'attachment rm on a locked conversation', args: ['-c', 'conversation.lock_timeout_secs=0', 'attachment', 'rm', '--id', '<B>', 'ok.txt'], code: 5, message: /is locked by process/ },
  { name: 'gc while the blob store is locked', args: ['-w', '../locked-blobs', '-c', 'conversation.lock_timeout_secs=0', 'gc'], code: 5, message: /blob store of this workspace .* is locked by process/ },
];

/** Models and keys: exit 2 for a model jp does not know, 3 for a provider without its key. */
const providerCases: Case[] = [
  { name: 'an empty model', args: ['query', '-m', '', 'x'], code: 2, message: /assistant\.model/ },
  { name: 'a provider jp does not know', args: ['query', '-m', 'nosuch/model', 'x'], code: 2, message: /nosuch/ },
  { name: 'anthropic without its key', args: ['query', '-m', 'anthropic/claude-test', 'x'], code: 3, message: /ANTHROPIC_API_KEY is not set/, errorCode: 'missing_api_key' },
  { name: 'openai without its key', args: ['query', '-m', 'openai/gpt-test', 'x'], code: 3, message: /OPENAI_API_KEY is not set/ },
  { name: 'google without its key', args: ['query', '-m', 'google/gemini-test', 'x'], code: 3, message: /GEMINI_API_KEY is not set/ },
  { name: 'openrouter without its key', args: ['query', '-m', 'openrouter/x/y', 'x'], code: 3, message: /OPENROUTER_API_KEY is not set/ },
  { name: 'a key variable that is not set', args: ['-c', 'providers.anthropic.api_key_env=JP_NO_SUCH_KEY', 'query', '-m', 'anthropic/claude-test', 'x'], code: 3, message: /JP_NO_SUCH_KEY is not set/ },
  { name: 'a missing key with an attachment that would fail too', args: ['query', '-m', 'anthropic/claude-test', '--attach', 'nope.txt', 'x'], code: 3, message: /ANTHROPIC_API_KEY is not set/ },
];

const CASES: Case[] = [
  ...parserCases,
  ...selectionCases,
  ...workspaceCases,
  ...cfgCases,
  ...configFileCases,
  ...schemaCases,
  ...attachmentCases,
  ...damageCases,
  ...lockCases,
  ...providerCases,
];

/**
 * Each case runs once: every other one with `-F json` (unless it says otherwise), so both forms
 * are held to the contract across every kind of case in half the processes (the machine has two
 * cores, and each run is a process start).
 */
const RUNS = CASES.map((testCase, k) => ({ ...testCase, format: k % 2 === 1 && testCase.json !== false ? ('json' as const) : ('text' as const) }));

function argsOf(testCase: Case, format: 'text' | 'json'): string[] {
  const args = testCase.args.map((arg) => arg.replace(/<([A-I])>/g, (_, role: Role) => ids[role]));
  return format === 'json' ? ['-F', 'json', ...args] : args;
}

function expectOneLine(result: JpResult, testCase: Case, format: 'text' | 'json'): void {
  expect(result.code, result.stderr).toBe(testCase.code);
  expect(result.stderr.endsWith('\n'), result.stderr).toBe(true);
  const lines = result.stderr.slice(0, -1).split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  const line = lines[0]!;
  if (format === 'text') {
    expect(line).toMatch(/^jp: /);
    expect(line).toMatch(testCase.message);
    return;
  }
  const { error } = JSON.parse(line) as { error: { code: string; exitCode: number; message: string } };
  expect(error.exitCode).toBe(testCase.code);
  expect(typeof error.code).toBe('string');
  if (testCase.errorCode !== undefined) expect(error.code).toBe(testCase.errorCode);
  expect(error.message).toMatch(testCase.message);
}

describe.concurrent('the bad-input corpus', () => {
  it('has at least 150 cases, a third of them or more with -F json', () => {
    expect(RUNS.length).toBeGreaterThanOrEqual(150);
    expect(RUNS.filter((run) => run.format === 'json').length).toBeGreaterThanOrEqual(RUNS.length / 3);
  });

  for (const run of RUNS) {
    it(`${run.name}${run.format === 'json' ? ' (-F json)' : ''}: exit ${run.code}, one line, nothing changed`, async () => {
      const sandbox = await takeSandbox();
      try {
        const before = snapshot(sandbox);
        const caseEnv = run.xdg === undefined ? env : { ...env, XDG_CONFIG_HOME: path.join(sandbox, run.xdg) };
        const result = await runJp(argsOf(run, run.format), { cwd: path.join(sandbox, 'project'), env: caseEnv, input: run.input, timeoutMs: 60_000 });
        expectOneLine(result, run, run.format);
        expect(snapshot(sandbox)).toEqual(before);
      } finally {
        giveBack(sandbox);
      }
    });
  }
});

/** What used to be wrong quietly, now right: each through the binary in a workspace of its own. */
describe('inputs at the edges, handled', () => {
  const project = path.join(root, 'edges');
  const jp = (args: string[], input?: string) => runJp(args, { cwd: project, env, input, timeoutMs: 60_000 });
  const newId = (result: JpResult): string => JSON.parse(result.stdout.trim().split('\n').at(-1)!).conversation as string;
  const eventsOf = (id: string) =>
    readFileSync(path.join(project, '.jp', 'conversations', id, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, any>);
  const requestOf = (id: string) => eventsOf(id).findLast((event) => event.type === 'chat_request')!;
  const blobText = (sha256: string) => readFileSync(path.join(project, '.jp', 'blobs', sha256.slice(0, 2), sha256), 'utf8');

  beforeAll(async () => {
    mkdirSync(project, { recursive: true });
    expect((await jp(['init'])).code).toBe(0);
  });

  it('reads /proc files that say they are empty to their end, and stores what they hold', async () => {
    const result = await jp(['-F', 'json', 'query', '--new', '-m', 'echo', '-a', '/proc/cpuinfo', '-a', '/proc/meminfo', '-a', '/proc/self/status', 'x']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    const resources = requestOf(newId(result)).resources as Array<{ name: string; size: number; $blob: string }>;
    expect(resources.map((resource) => resource.name)).toEqual(['cpuinfo', 'meminfo', 'status']);
    for (const resource of resources) expect(resource.size).toBeGreaterThan(0);
    expect(blobText(resources[0]!.$blob)).toMatch(/^processor\s*:/m);
    expect(blobText(resources[1]!.$blob)).toMatch(/^MemTotal:/);
    expect(blobText(resources[2]!.$blob)).toMatch(/^Name:/);
  });

  it('applies the size policy to --attach -: truncate keeps the limit, allow keeps all', async () => {
    const piped = 'z'.repeat(600 * 1024);
    const truncated = await jp(['-F', 'json', '-c', 'conversation.attachment.size_policy=truncate', 'query', '--new', '-m', 'echo', '-a', '-', 'x'], piped);
    expect(truncated.code, truncated.stderr).toBe(0);
    const [cut] = requestOf(newId(truncated)).resources;
    expect(cut).toMatchObject({ name: 'stdin', size: 512 * 1024 });
    expect(cut.description).toMatch(/^truncated: the first 524288 of 614400 bytes/);
    const allowed = await jp(['-F', 'json', '-c', 'conversation.attachment.size_policy=allow', 'query', '--new', '-m', 'echo', '-a', '-', 'x'], piped);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(requestOf(newId(allowed)).resources[0]).toMatchObject({ name: 'stdin', size: 600 * 1024 });
  });

  it('keeps an unknown event that fits between turns, with one warning, and takes the next turn', async () => {
    const id = newId(await jp(['-F', 'json', 'query', '--new', '-m', 'echo', 'first']));
    const file = path.join(project, '.jp', 'conversations', id, 'events.jsonl');
    const future = { type: 'future_note', timestamp: new Date().toISOString(), note: 'from a newer jp' };
    writeFileSync(file, `${readFileSync(file, 'utf8')}${JSON.stringify(future)}\n`);
    const text = await jp(['query', '--id', id, '-m', 'echo', 'second']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stderr).toMatch(/^jp: warning: .*events\.jsonl: kept an event of a type this jp does not know \("future_note", first at line \d+\)/);
    expect(text.stderr.trimEnd().split('\n')).toHaveLength(1);
    const json = await jp(['-F', 'json', 'conversation', 'show', id]);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(json.stderr).warning).toMatch(/future_note/);
    expect(eventsOf(id).filter((event) => event.type === 'future_note')).toEqual([future]);
    expect(eventsOf(id).filter((event) => event.type === 'turn_start')).toHaveLength(2);
  });

  it('stores a turn once after a damaged metadata.json is repaired', async () => {
    const id = newId(await jp(['-F', 'json', 'query', '--new', '-m', 'echo', 'first']));
    const metadata = path.join(project, '.jp', 'conversations', id, 'metadata.json');
    const good = readFileSync(metadata, 'utf8');
    writeFileSync(metadata, '{broken');
    for (let attempt = 0; attempt < 2; attempt++) expect((await jp(['query', '--id', id, '-m', 'echo', '-a', '/proc/cpuinfo', 'second'])).code).toBe(1);
    writeFileSync(metadata, good);
    expect((await jp(['query', '--id', id, '-m', 'echo', 'second'])).code).toBe(0);
    expect(eventsOf(id).filter((event) => event.type === 'chat_request').map((event) => event.content)).toEqual(['first', 'second']);
  });

  it('prints nothing of its own libraries: a schema with formats Ajv does not check, and -v', async () => {
    const schema = JSON.stringify({ type: 'object', properties: { home: { type: 'string', format: 'uri' }, at: { type: 'string', format: 'date-time' } } });
    const result = await jp(['-v', 'query', '--new', '--no-persist', '-m', 'echo', '--schema', schema, 'x']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
  });

  it('reads more than ten MCP resources in one query without a listener warning, even with -v', async () => {
    const config = path.join(project, '.jp', 'config.toml');
    writeFileSync(config, `${readFileSync(config, 'utf8')}\n[mcp.fixture]\ncommand = ${JSON.stringify(process.execPath)}\nargs = ${JSON.stringify([FIXTURE])}\n`);
    const attachments = Array.from({ length: 14 }, (_, k) => ['-a', `mcp+fixture+fixture://notes/${k}`]).flat();
    const result = await jp(['-v', 'query', '--new', '--no-persist', '-m', 'echo', ...attachments, 'x']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
  });

  it('jp init makes missing parents, and says where .jp is already', async () => {
    const made = await runJp(['init', 'a/b/c'], { cwd: root, env });
    expect(made.code, made.stderr).toBe(0);
    expect(lstatSync(path.join(root, 'a', 'b', 'c', '.jp')).isDirectory()).toBe(true);
    const again = await runJp(['-F', 'json', 'init', 'a/b/c'], { cwd: root, env });
    expect(JSON.parse(again.stdout)).toMatchObject({ created: false });
  });
});
