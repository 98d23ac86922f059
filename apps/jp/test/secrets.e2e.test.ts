import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStandaloneServer } from '@jp/test-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOneLineError, makeSandbox, readEvents, readStoredEvents, runJp, snapshotTree, turnsOf } from './helpers/run-jp.ts';

// Secrets stay out of .jp/ (RFD 001, secrets), through the built binary with a sandboxed HOME. Every
// secret below reaches the process that needs it (the fixture server answers with its sha256),
// and at the end not one byte sequence of any of them is found under .jp/.
const FIXTURE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../packages/attachments/src/mcp/__fixtures__/fixture-server.mjs');
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const toml = (value: unknown) => JSON.stringify(value);

const SECRETS = {
  /** A literal in the user's config file, for a server the user file defines. */
  userServer: 'ghp_userServerLiteral_1a2b3c',
  /** A literal in the user's config file, added to a server the workspace file defines. */
  userOnWorkspaceServer: 'tok_userAddsToWorkspaceServer_4d5e',
  /** jp's MY_GH_TOKEN, which the workspace's env_from hands to the server as GITHUB_TOKEN. */
  envFrom: 'ghp_envFromValue_6f7a8b',
  /** jp's API_SECRET, which the workspace's env writes into "Bearer ${API_SECRET}". */
  reference: 'sk_referencedValue_9c0d1e',
  /** `-c mcp.fx.env.CLI_TOKEN=…` on a follow-up. */
  cfgEnv: 'tok_cfgEnvValue_2f3a4b',
  /** An env value inside a whole server given with `-c mcp.clisrv={…}`. */
  cfgServer: 'tok_cfgWholeServer_5c6d7e',
  /** `-c providers.openai.api_key=…`: not a key jp has; refused without being echoed. */
  cfgApiKey: 'sk-cfgApiKeyValue-8f9a0b',
  /** `jp config set mcp.fx.env.X …`: refused. */
  configSet: 'tok_configSetValue_1c2d3e',
  /** The password in a provider base URL's userinfo (`http://me:…@host/v1`). */
  urlPassword: 'pw_urlUserinfo_3e4f5a',
  /** A token as a base URL's whole userinfo (`https://…@host/v1`). */
  urlToken: 'ghp_urlUserToken_6b7c8d',
  /** `?key=` on a provider base URL, as Gemini's REST API takes it. */
  urlQueryKey: 'AIza_urlQueryKey_9e0f1a',
  /** `?token=` on a base URL `jp config set` is asked to write: refused. */
  configSetUrl: 'tok_configSetUrl_2b3c4d',
};
// A config cannot hold HTTP headers (no key takes them), so an Authorization header has no carrier.

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  const files: string[] = [];
  const walk = (current: string) => {
    for (const name of readdirSync(current)) {
      const full = path.join(current, name);
      if (statSync(full).isDirectory()) walk(full);
      else files.push(full);
    }
  };
  walk(dir);
  return files;
}

const BASE64 = /^[A-Za-z0-9+/_-]{8,}={0,2}$/;

/** Every string inside a JSON value, and the text of each that decodes as base64 (a blob's data). */
function stringsIn(value: unknown, out: string[]): void {
  if (typeof value === 'string') {
    out.push(value);
    if (BASE64.test(value)) out.push(Buffer.from(value, 'base64').toString('latin1'));
  } else if (Array.isArray(value)) {
    for (const item of value) stringsIn(item, out);
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      out.push(key);
      stringsIn(item, out);
    }
  }
}

/**
 * What a file holds, decoded: its raw bytes; each JSON document in it (the whole file, or each line
 * of a .jsonl) walked, with every string, JSON escapes undone, and every base64 string decoded,
 * so a secret inside a larger base64 blob or written as `\u0073k-…` is found too.
 */
function decodedTexts(file: string): string[] {
  const raw = readFileSync(file);
  const texts = [raw.toString('latin1')];
  const text = raw.toString('utf8');
  for (const doc of [text, ...text.split('\n')]) {
    try {
      stringsIn(JSON.parse(doc), texts);
    } catch {
      // Not JSON: the raw bytes above are what it holds.
    }
  }
  return texts;
}

/** Where each secret is found under `dir`: in a file's bytes, or in any string or base64 value its JSON decodes to. */
function findSecrets(dir: string): Record<string, string[]> {
  const decoded = filesUnder(dir).map((file) => ({ file, texts: decodedTexts(file) }));
  const found: Record<string, string[]> = {};
  for (const [label, secret] of Object.entries(SECRETS)) {
    const needle = Buffer.from(secret).toString('latin1');
    found[label] = decoded.filter(({ texts }) => texts.some((text) => text.includes(needle))).map(({ file }) => file);
  }
  return found;
}

const { root, home, env: sandboxEnv } = makeSandbox('jp-secrets-e2e-');
const ws = path.join(root, 'project');
const jpDir = path.join(ws, '.jp');
const env = { ...sandboxEnv, MY_GH_TOKEN: SECRETS.envFrom, API_SECRET: SECRETS.reference };
const jp = (args: string[], options: { env?: NodeJS.ProcessEnv } = {}) => runJp(args, { cwd: ws, env: options.env ?? env, timeoutMs: 60_000 });
const idOf = (stdout: string): string => JSON.parse(stdout.trim().split('\n').at(-1)!).conversation;
/** The text of each tool result of the conversation's last turn. */
const toolResults = (id: string): string[] =>
  turnsOf(readEvents(ws, id))
    .at(-1)!
    .filter((event) => event.type === 'tool_call_response')
    .map((event) => event.content.map((block: { text?: string }) => block.text ?? '').join(''));

const fixtureServer = (settings: string) => `command = ${toml(process.execPath)}\nargs = [${toml(FIXTURE)}]\ntools = ["env_digest"]\nrun = "unattended"\n${settings}`;

const WORKSPACE_CONFIG = [
  '[assistant]\nmodel = "echo"\n',
  '[conversation]\nattachments = ["notes.txt"]\n',
  `[mcp.fx]\n${fixtureServer('env = { API_AUTH = "Bearer ${API_SECRET}", FIXTURE_DIGEST_ENV = "GITHUB_TOKEN,API_AUTH,EXTRA_TOKEN,CLI_TOKEN" }\nenv_from = { GITHUB_TOKEN = "MY_GH_TOKEN" }\n')}`,
].join('\n');

const USER_CONFIG = [
  `[mcp.userfx]\n${fixtureServer(`env = { USER_TOKEN = ${toml(SECRETS.userServer)}, FIXTURE_DIGEST_ENV = "USER_TOKEN" }\n`)}`,
  // It adds to a server the workspace file defines: the merged configuration is what is validated.
  `[mcp.fx]\nenv = { EXTRA_TOKEN = ${toml(SECRETS.userOnWorkspaceServer)} }\n`,
].join('\n');

beforeAll(async () => {
  mkdirSync(ws, { recursive: true });
  expect((await jp(['init'])).code).toBe(0);
  writeFileSync(path.join(jpDir, 'config.toml'), WORKSPACE_CONFIG);
  writeFileSync(path.join(ws, 'notes.txt'), 'plain notes\n');
  mkdirSync(path.join(ws, 'docs'));
  for (const name of ['a.md', 'b.md']) writeFileSync(path.join(ws, 'docs', name), `# ${name}\n`);
  mkdirSync(path.join(home, '.config', 'jp'), { recursive: true });
  writeFileSync(path.join(home, '.config', 'jp', 'config.toml'), USER_CONFIG);
});

describe('secrets through the binary', { timeout: 60_000 }, () => {
  let first = '';
  let cliServer = '';

  it('a new conversation: the servers get their secrets; base-config.json is the workspace file alone, without its secret values', async () => {
    const result = await jp(['-F', 'json', 'query', '--new', '!tool mcp__fx__env_digest {}\n!tool mcp__userfx__env_digest {}']);
    expect(result.code, result.stderr).toBe(0);
    first = idOf(result.stdout);
    expect(toolResults(first)).toEqual([
      [
        `GITHUB_TOKEN sha256:${sha(SECRETS.envFrom)}`,
        `API_AUTH sha256:${sha(`Bearer ${SECRETS.reference}`)}`,
        `EXTRA_TOKEN sha256:${sha(SECRETS.userOnWorkspaceServer)}`,
        'CLI_TOKEN unset',
      ].join('\n'),
      `USER_TOKEN sha256:${sha(SECRETS.userServer)}`,
    ]);
    const base = JSON.parse(readFileSync(path.join(jpDir, 'conversations', first, 'base-config.json'), 'utf8'));
    expect(base.mcp).toEqual({
      fx: {
        command: process.execPath,
        args: [FIXTURE],
        tools: ['env_digest'],
        run: 'unattended',
        // Every literal env value counts as secret (RFD 001): only the names of variables are kept.
        env_from: { GITHUB_TOKEN: 'MY_GH_TOKEN' },
      },
    });
    expect(turnsOf(readStoredEvents(ws, first))[0]!.some((event) => event.type === 'config_delta')).toBe(false);
  });

  it('jp config show --id shows the effective values, the user file included', async () => {
    const shown = JSON.parse((await jp(['-F', 'json', 'config', 'show', '--id', first])).stdout);
    expect(shown.config.mcp.userfx.env.USER_TOKEN).toBe(SECRETS.userServer);
    expect(shown.config.mcp.fx.env).toMatchObject({ EXTRA_TOKEN: SECRETS.userOnWorkspaceServer, API_AUTH: 'Bearer ${API_SECRET}' });
    expect(shown.config.mcp.fx.env_from).toEqual({ GITHUB_TOKEN: 'MY_GH_TOKEN' });
    expect(shown.config.conversation.attachments).toEqual(['notes.txt']);
    expect(shown.sources).toMatchObject({ 'mcp.fx.env.EXTRA_TOKEN': 'user', 'mcp.fx.env.API_AUTH': 'workspace', 'conversation.attachments': 'workspace' });
  });

  it('a -c secret is used for the query and, like every -c, never stored: nothing to warn about', async () => {
    const cfg = `mcp.fx={command=${toml(process.execPath)}, env={CLI_TOKEN=${toml(SECRETS.cfgEnv)}}}`;
    const result = await jp(['-c', cfg, '-c', 'assistant.max_tokens=321', 'query', '--id', first, '!tool mcp__fx__env_digest {}']);
    expect(result.code, result.stderr).toBe(0);
    expect(toolResults(first)[0]).toContain(`CLI_TOKEN sha256:${sha(SECRETS.cfgEnv)}`);
    expect(result.stderr).not.toContain('secret');
    expect(turnsOf(readStoredEvents(ws, first)).at(-1)!.filter((event) => event.type === 'config_delta')).toEqual([]);
    expect(readFileSync(path.join(jpDir, 'conversations', first, 'events.jsonl'), 'utf8')).not.toContain(SECRETS.cfgEnv);
  });

  it('a whole server given with -c serves that query only; with -F json nothing is said about it', async () => {
    const server = `{command=${toml(process.execPath)}, args=[${toml(FIXTURE)}], tools=["env_digest"], run="unattended", env={SRV_TOKEN=${toml(SECRETS.cfgServer)}, FIXTURE_DIGEST_ENV="SRV_TOKEN"}}`;
    const result = await jp(['-F', 'json', '-c', `mcp.clisrv=${server}`, 'query', '--new', '!tool mcp__clisrv__env_digest {}']);
    expect(result.code, result.stderr).toBe(0);
    cliServer = idOf(result.stdout);
    expect(toolResults(cliServer)).toEqual([`SRV_TOKEN sha256:${sha(SECRETS.cfgServer)}`]);
    expect(result.stderr.split('\n').filter((line) => line.includes('secret'))).toEqual([]);
    expect(turnsOf(readStoredEvents(ws, cliServer))[0]!.filter((event) => event.type === 'config_delta')).toEqual([]);
    const shown = JSON.parse((await jp(['-F', 'json', 'config', 'show', '--id', cliServer])).stdout);
    expect(shown.config.mcp.clisrv).toBeUndefined();
  });

  it('forks, with and without turns, carry the workspace layer and the deltas, and run', async () => {
    for (const args of [['conversation', 'fork', first], ['conversation', 'fork', first, '--no-turns'], ['conversation', 'fork', cliServer, '--no-turns']]) {
      const forked = await jp(['-F', 'json', ...args]);
      expect(forked.code, forked.stderr).toBe(0);
      const { id } = JSON.parse(forked.stdout);
      const result = await jp(['query', '--id', id, '!tool mcp__fx__env_digest {}']);
      expect(result.code, result.stderr).toBe(0);
      expect(toolResults(id)[0]).toContain(`EXTRA_TOKEN sha256:${sha(SECRETS.userOnWorkspaceServer)}`);
    }
  });

  it('jp attachment add starts the server it needs (env_from resolved) and records only the declaration', async () => {
    const result = await jp(['attachment', 'add', '--id', first, 'mcp+fx+fixture://docs/readme', 'mcp+userfx+fixture://docs/readme', 'docs/']);
    expect(result.code, result.stderr).toBe(0);
    // jp keeps a file's stamp in its file cache only once the file has been left alone for 2.5 s.
    const settledAt = statSync(path.join(ws, 'docs', 'b.md')).ctimeMs + 2_700;
    if (Date.now() < settledAt) await new Promise((resolve) => setTimeout(resolve, settledAt - Date.now()));
    const next = await jp(['query', '--id', first, 'with the readme']);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stdout).toContain('resource fixture://docs/readme');
    expect(readFileSync(path.join(jpDir, 'local', 'cache', 'file-contents.json'), 'utf8')).toContain('/docs/a.md');
  });

  it('a provider URL with a password, a token or ?key= is used for the request, left out of the conversation, and redacted in errors', async () => {
    const server = await startStandaloneServer();
    try {
      const base = new URL(`${server.url}?key=${SECRETS.urlQueryKey}`);
      [base.username, base.password] = ['me', SECRETS.urlPassword];
      const result = await jp(['-F', 'json', '-c', `providers.anthropic.base_url=${toml(base.toString())}`, 'query', '--new', '-m', 'anthropic/claude-sonnet-4-5', 'hi'], {
        env: { ...env, ANTHROPIC_API_KEY: 'sk-test' },
      });
      expect(result.code, result.stderr).toBe(0);
      const sent = server.requests.at(-1)!;
      expect(sent.headers.authorization).toBe(`Basic ${Buffer.from(`me:${SECRETS.urlPassword}`).toString('base64')}`);
      expect(sent.query).toEqual({ key: SECRETS.urlQueryKey });
      expect(result.stderr).not.toContain('secret');
      const id = idOf(result.stdout);
      const deltas = turnsOf(readStoredEvents(ws, id))[0]!.filter((event) => event.type === 'config_delta');
      expect(deltas.map((event) => event.delta)).toEqual([{ assistant: { model: 'anthropic/claude-sonnet-4-5' } }]);
    } finally {
      await server.close();
    }
    // Port 9 is one fetch refuses: the error (not retried) names the URL without its secrets.
    const before = snapshotTree(jpDir);
    const failed = await jp(['-c', `providers.openai.base_url="http://${SECRETS.urlToken}@127.0.0.1:9/v1?token=${SECRETS.urlQueryKey}"`, 'query', '--id', first, '-m', 'openai/gpt-5.1', 'x'], {
      env: { ...env, OPENAI_API_KEY: 'sk-test' },
    });
    expect(failed.code).toBe(3);
    const lines = failed.stderr.trimEnd().split('\n');
    // A -c is never stored, so nothing is said about its secret; the error is the last line.
    expect(failed.stderr).not.toContain('secret');
    expect(lines.at(-1)).toBe('jp: cannot connect to openai at http://***@127.0.0.1:9/v1?token=***: HTTP clients refuse that port; use another port in providers.openai.base_url');
    expect(snapshotTree(jpDir)).toEqual(before);
  });

  it('jp config set: a workspace key is written alone; a secret is refused without being echoed; a variable name is fine', async () => {
    expect((await jp(['config', 'set', 'conversation.lock_timeout_secs', '7'])).code).toBe(0);
    const before = snapshotTree(jpDir);
    const refused = await jp(['config', 'set', 'mcp.fx.env.SET_TOKEN', SECRETS.configSet]);
    expectOneLineError(refused, 2, /^jp: mcp\.fx\.env\.SET_TOKEN is a secret and \.jp\/config\.toml may be committed: name a variable instead \(jp config set mcp\.fx\.env_from\.SET_TOKEN VAR, or "\$\{VAR\}" as the value\), or set it in .*\/\.config\/jp\/config\.toml$/);
    expect(refused.stderr).not.toContain(SECRETS.configSet);
    expect(snapshotTree(jpDir)).toEqual(before);
    const refusedUrl = await jp(['config', 'set', 'providers.ollama.base_url', toml(`http://127.0.0.1:11434/v1?token=${SECRETS.configSetUrl}`)]);
    expectOneLineError(refusedUrl, 2, /^jp: providers\.ollama\.base_url is a secret and \.jp\/config\.toml may be committed: give it through an environment variable, or set it in .*$/);
    expect(refusedUrl.stderr).not.toContain(SECRETS.configSetUrl);
    expect(snapshotTree(jpDir)).toEqual(before);
    expect((await jp(['config', 'set', 'mcp.fx.env_from.SET_TOKEN', 'MY_GH_TOKEN'])).code).toBe(0);
    expect((await jp(['config', 'set', 'mcp.fx.env.REF_TOKEN', '${API_SECRET}'])).code).toBe(0);
    const written = readFileSync(path.join(jpDir, 'config.toml'), 'utf8');
    expect(written).toContain('lock_timeout_secs = 7');
    expect(written).toContain('SET_TOKEN = "MY_GH_TOKEN"');
    expect(written).toContain('REF_TOKEN = "${API_SECRET}"');
  });

  it('-c with a secret-named key jp does not have: exit 2, the value is not echoed, nothing is written', async () => {
    const before = snapshotTree(jpDir);
    const result = await jp(['-c', `providers.openai.api_key=${SECRETS.cfgApiKey}`, 'query', '--id', first, 'x']);
    expectOneLineError(result, 2, /^jp: invalid configuration in -c "providers\.openai\.api_key=…": unknown key providers\.openai\.api_key \(did you mean providers\.openai\.api_key_env\?\)$/);
    expect(result.stderr).not.toContain(SECRETS.cfgApiKey);
    expect(snapshotTree(jpDir)).toEqual(before);
  });

  it('a variable that is not set: a --tool of that server fails with one line naming the server and the variable; nothing is written', async () => {
    const before = snapshotTree(jpDir);
    const { MY_GH_TOKEN: _unset, ...without } = env;
    const result = await jp(['query', '--id', first, '--tool', 'mcp__fx__env_digest', '!tool mcp__fx__env_digest {}'], { env: without });
    expectOneLineError(
      result,
      4,
      /^jp: MCP server fx cannot start: the environment variable MY_GH_TOKEN is not set \(mcp\.fx\.env_from\.GITHUB_TOKEN\); set it for jp, or change mcp\.fx\.env_from\.GITHUB_TOKEN$/,
    );
    expect(snapshotTree(jpDir)).toEqual(before);

    // Without --tool the query goes on without that server's tools, with one warning (RFD 018).
    const explained = await jp(['query', '--id', first, '--explain', 'x'], { env: without });
    expect(explained.code, explained.stderr).toBe(0);
    expect(explained.stderr).toContain(
      'jp: warning: MCP server fx cannot start: the environment variable MY_GH_TOKEN is not set (mcp.fx.env_from.GITHUB_TOKEN); set it for jp, or change mcp.fx.env_from.GITHUB_TOKEN; its tools are not offered',
    );
    expect(snapshotTree(jpDir)).toEqual(before);
  });

  it('--explain and conversation show -F json reveal no secret (tool results hold digests; config is not part of a request)', async () => {
    const cfg = `mcp.fx={command=${toml(process.execPath)}, env={CLI_TOKEN=${toml(SECRETS.cfgEnv)}}}`;
    const explained = await jp(['-F', 'json', '-c', cfg, 'query', '--id', first, '--explain', '!tool mcp__fx__env_digest {}']);
    expect(explained.code, explained.stderr).toBe(0);
    expect(explained.stderr).not.toContain('secret'); // nothing is stored, so there is nothing to say
    const conversations = readdirSync(path.join(jpDir, 'conversations'));
    const shown = await Promise.all(conversations.map((id) => jp(['-F', 'json', 'conversation', 'show', id])));
    for (const output of [explained.stdout, ...shown.map((result) => result.stdout)]) {
      for (const secret of Object.values(SECRETS)) expect(output).not.toContain(secret);
    }
  });

  it('a conversation created before the rule (user values in its base config) still runs and shows its frozen values', async () => {
    const old = '0mhz3k1ab-x7k2q';
    cpSync(path.join(jpDir, 'conversations', first), path.join(jpDir, 'conversations', old), { recursive: true });
    const base = JSON.parse(readFileSync(path.join(jpDir, 'conversations', old, 'base-config.json'), 'utf8'));
    base.assistant = { model: 'echo', system_prompt: 'frozen when created' };
    writeFileSync(path.join(jpDir, 'conversations', old, 'base-config.json'), JSON.stringify(base));
    // As an earlier jp wrote it: no configVersion in its metadata.
    const metadataFile = path.join(jpDir, 'conversations', old, 'metadata.json');
    const { configVersion: _version, ...metadata } = JSON.parse(readFileSync(metadataFile, 'utf8'));
    writeFileSync(metadataFile, JSON.stringify(metadata));
    const shown = JSON.parse((await jp(['-F', 'json', 'config', 'show', '--id', old])).stdout);
    expect(shown.config.assistant.system_prompt).toBe('frozen when created');
    expect(shown.sources['assistant.system_prompt']).toBe('conversation');
    expect(shown.config.mcp.userfx.env.USER_TOKEN).toBe(SECRETS.userServer);
    const result = await jp(['query', '--id', old, '!tool mcp__userfx__env_digest {}']);
    expect(result.code, result.stderr).toBe(0);
    expect(toolResults(old)).toEqual([`USER_TOKEN sha256:${sha(SECRETS.userServer)}`]);
  });

  it('not one secret is found under .jp/ (every file, blobs, packs and the file cache included)', () => {
    const searched = filesUnder(jpDir).map((file) => path.relative(jpDir, file));
    expect(searched).toContain('local/cache/file-contents.json');
    expect(searched.some((file) => file.startsWith('blobs/'))).toBe(true);
    expect(searched.filter((file) => file.endsWith('base-config.json')).length).toBeGreaterThanOrEqual(6);
    const found = findSecrets(jpDir);
    const absent = Object.values(found).filter((files) => files.length === 0).length;
    console.log(`${absent} of ${Object.keys(SECRETS).length} secrets absent from .jp/`);
    expect(found).toEqual(Object.fromEntries(Object.keys(SECRETS).map((label) => [label, []])));
    // The search would have found them: the test's own sandbox holds the user-file secrets, and a
    // secret inside a larger base64 blob in a JSON line, or escaped in JSON, is found too.
    expect(findSecrets(path.join(home, '.config')).userServer).toHaveLength(1);
    const control = path.join(root, 'control');
    mkdirSync(control, { recursive: true });
    const blob = Buffer.from(`header ${SECRETS.reference} trailer`).toString('base64');
    writeFileSync(path.join(control, 'events.jsonl'), `{"a":1}\n${JSON.stringify({ data: blob })}\n`);
    writeFileSync(path.join(control, 'escaped.json'), JSON.stringify({ v: SECRETS.urlToken }).replace('_', '\\u005f'));
    const controlFound = findSecrets(control);
    expect([controlFound.reference, controlFound.urlToken]).toEqual([[path.join(control, 'events.jsonl')], [path.join(control, 'escaped.json')]]);
  });
});
