import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMcpHandler, DEFAULT_LIMITS, type HandlerContext } from '@jp/attachments';
import { AttachmentError, isBlobResource, isTextResource, type Resource } from '@jp/core';
import { afterAll, describe, expect, it } from 'vitest';
import { configSchema } from '../config/config-schema.ts';
import { connectStdioServer, type StdioServerSettings } from './connect-stdio-server.ts';
import { McpClientPool, type McpServerConfig } from './mcp-client-pool.ts';

// The pool against real servers over stdio: jp's fixture server and server-everything.
const here = path.dirname(fileURLToPath(import.meta.url));
const FIXTURE = path.resolve(here, '../../../../packages/attachments/src/mcp/__fixtures__/fixture-server.mjs');
const MODERN = path.resolve(here, '../../test/fixtures/mcp-servers/sdk2-modern-server.mjs');
const EVERYTHING = path.join(path.dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')), 'dist/index.js');

const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'jp-mcp-pool-')));
mkdirSync(path.join(root, 'sub'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A server entry as the config schema gives it (defaults filled in). */
function entry(fields: Record<string, unknown>): McpServerConfig {
  return configSchema().parse({ mcp: { server: fields } }).mcp.server!;
}

let pidFiles = 0;
/** The fixture server; its pid file tells whether the process is still there. */
function server(overrides: Record<string, unknown> & { flags?: string[]; env?: Record<string, string> } = {}): McpServerConfig & { pidFile: string } {
  const pidFile = path.join(root, `pid-${++pidFiles}`);
  const { flags = [], env = {}, ...rest } = overrides;
  return { ...entry({ command: process.execPath, args: [FIXTURE, ...flags], ...rest, env: { FIXTURE_PID_FILE: pidFile, ...env } }), pidFile };
}

function alive(pidFile: string): boolean {
  const pid = Number(readFileSync(pidFile, 'utf8'));
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function context(pool: McpClientPool): HandlerContext {
  return { workspaceRoot: root, cwd: root, limits: DEFAULT_LIMITS, logger: { warn: () => undefined }, mcp: pool };
}

const handler = createMcpHandler();
async function read(pool: McpClientPool, input: string): Promise<Resource[]> {
  const ctx = context(pool);
  return handler.resolve([await handler.validate(input, ctx)], ctx);
}

async function rejection(promise: Promise<unknown>): Promise<AttachmentError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AttachmentError);
  return error as AttachmentError;
}

const text = (resource: Resource | undefined) => (resource !== undefined && isTextResource(resource) ? resource.text : undefined);

describe('McpClientPool over stdio', () => {
  it('starts a server on first use, reuses it, passes env over the default one, runs it in the workspace, and stops it on close', async () => {
    const fixture = server({ env: { FIXTURE_ECHO_ENV: 'configured value' }, cwd: 'sub' });
    let starts = 0;
    const pool = new McpClientPool(
      { fixture },
      { workspaceRoot: root, connect: (settings: StdioServerSettings) => (starts++, connectStdioServer(settings)) },
    );
    expect(starts).toBe(0);
    const [readme] = await read(pool, 'mcp+fixture+fixture://docs/readme');
    expect(readme).toMatchObject({ uri: 'fixture://docs/readme', name: 'readme', mimeType: 'text/markdown' });
    const [env] = await read(pool, 'mcp+fixture+fixture://env');
    const [cwd] = await read(pool, 'mcp+fixture+fixture://cwd');
    expect(text(env)).toBe('configured value');
    expect(text(cwd)).toBe(path.join(root, 'sub'));
    expect(await pool.get('fixture')).toBe(await pool.get('fixture'));
    expect(starts).toBe(1);
    expect(alive(fixture.pidFile)).toBe(true);
    await pool.close();
    expect(alive(fixture.pidFile)).toBe(false);
    await pool.close();
    const late = await rejection(pool.get('fixture'));
    expect(late.message).toMatch(/after jp closed its servers/);
  }, 20_000);

  it('env_from and ${NAME} take their values from jp\'s environment at spawn time; a variable not set fails the server once, before any process', async () => {
    const byName = server({ env_from: { FIXTURE_ECHO_ENV: 'JP_TEST_SECRET' } });
    const byReference = server({ env: { FIXTURE_ECHO_ENV: 'token=${JP_TEST_SECRET}' } });
    const missing = server({ env_from: { FIXTURE_ECHO_ENV: 'JP_TEST_UNSET' } });
    let starts = 0;
    const pool = new McpClientPool(
      { byName, byReference, missing },
      { workspaceRoot: root, environment: { JP_TEST_SECRET: 's3cret' }, connect: (settings) => (starts++, connectStdioServer(settings)) },
    );
    try {
      expect(text((await read(pool, 'mcp+byName+fixture://env'))[0])).toBe('s3cret');
      expect(text((await read(pool, 'mcp+byReference+fixture://env'))[0])).toBe('token=s3cret');
      const error = await rejection(read(pool, 'mcp+missing+fixture://env'));
      expect(error.message).toBe(
        'mcp+missing+fixture://env: MCP server missing cannot start: the environment variable JP_TEST_UNSET is not set (mcp.missing.env_from.FIXTURE_ECHO_ENV); set it for jp, or change mcp.missing.env_from.FIXTURE_ECHO_ENV',
      );
      expect(error.code).toBe('mcp_env_missing');
      expect(await rejection(pool.get('missing'))).toBe(await rejection(pool.get('missing')));
      expect(starts).toBe(2);
      expect(byName.env_from).toEqual({ FIXTURE_ECHO_ENV: 'JP_TEST_SECRET' }); // the configuration keeps the name
    } finally {
      await pool.close();
    }
  }, 20_000);

  it('an unknown server: lists the configured ones', async () => {
    const pool = new McpClientPool({ a: server(), b: server() }, { workspaceRoot: root });
    const error = await rejection(pool.get('c'));
    expect(error.message).toBe('no MCP server "c" is configured (configured: a, b); use one of those or add [mcp.c] with a command (and args) to .jp/config.toml');
    await pool.close();
  });

  it('a command that does not exist: names it and the setting, and is not retried', async () => {
    let starts = 0;
    const pool = new McpClientPool(
      { gone: server({ command: 'jp-no-such-mcp-server', args: [] }), lost: server({ command: path.join(root, 'nope'), args: [] }) },
      { workspaceRoot: root, connect: (settings) => (starts++, connectStdioServer(settings)) },
    );
    const gone = await rejection(pool.get('gone'));
    expect(gone.message).toBe(
      'MCP server gone cannot start: the command "jp-no-such-mcp-server" was not found on PATH (mcp.gone.command); install it or give its full path',
    );
    expect(gone.code).toBe('mcp_spawn_failed');
    expect(await rejection(pool.get('gone'))).toBe(gone);
    expect(starts).toBe(1);
    expect((await rejection(pool.get('lost'))).message).toMatch(/the command \/.*\/nope does not exist \(mcp\.lost\.command\)/);
    await pool.close();
  });

  it('a working directory that does not exist: names it', async () => {
    const pool = new McpClientPool({ fixture: server({ cwd: 'missing-dir' }) }, { workspaceRoot: root });
    const error = await rejection(pool.get('fixture'));
    expect(error.message).toBe(`MCP server fixture cannot start: its directory ${path.join(root, 'missing-dir')} does not exist (mcp.fixture.cwd)`);
    await pool.close();
  });

  it('a server that exits during initialize: its exit code and last stderr line', async () => {
    const broken = server({ flags: ['--exit-on-init'] });
    const pool = new McpClientPool({ broken }, { workspaceRoot: root });
    const error = await rejection(read(pool, 'mcp+broken+fixture://docs/readme'));
    expect(error.message).toBe(
      'mcp+broken+fixture://docs/readme: MCP server broken exited during startup with exit code 3 (stderr: "fixture: refusing to initialize (--exit-on-init)")',
    );
    expect(error.code).toBe('mcp_server_exited');
    await pool.close();
  }, 20_000);

  it('a server that is gone before jp has loaded its client (started early): its exit code and last stderr line', async () => {
    const pool = new McpClientPool({ gone: entry({ command: 'sh', args: ['-c', 'echo "gone: nothing to serve" >&2; exit 4'] }) }, { workspaceRoot: root });
    const error = await rejection(pool.get('gone'));
    expect(error.message).toBe('MCP server gone exited during startup with exit code 4 (stderr: "gone: nothing to serve")');
    expect(error.code).toBe('mcp_server_exited');
    await pool.close();
  }, 20_000);

  it('a server that refuses the 2025 handshake (SDK v2, legacy: reject) is started once more and spoken to in 2026-07-28', async () => {
    const pool = new McpClientPool({ modern: entry({ command: process.execPath, args: [MODERN] }) }, { workspaceRoot: root });
    try {
      const [note] = await read(pool, 'mcp+modern+modern://note');
      expect(note).toMatchObject({ uri: 'modern://note', name: 'note' });
      expect(text(note)).toBe('a modern note\n');
      expect((await pool.get('modern')).getNegotiatedProtocolVersion()).toBe('2026-07-28');
    } finally {
      await pool.close();
    }
  }, 20_000);

  it('an SDK-1 server gets the plain 2025 handshake, with no probe', async () => {
    const probeFile = path.join(root, 'probe-exit');
    const pool = new McpClientPool({ picky: server({ env: { FIXTURE_EXIT_ON_FIRST_FILE: probeFile } }) }, { workspaceRoot: root });
    try {
      // This fixture writes down the first message of its first start and exits.
      const error = await rejection(pool.get('picky'));
      expect(error.message).toBe('MCP server picky exited during startup with exit code 2');
      expect(readFileSync(probeFile, 'utf8')).toBe('initialize\n');
    } finally {
      await pool.close();
    }
    const again = new McpClientPool({ picky: server() }, { workspaceRoot: root });
    try {
      expect((await again.get('picky')).getNegotiatedProtocolVersion()).toBe('2025-11-25');
    } finally {
      await again.close();
    }
  }, 20_000);

  it('a server that never answers initialize: the startup timeout and its setting; the child is stopped', async () => {
    const mute = server({ flags: ['--hang-on-init'], startup_timeout_secs: 2 });
    const pool = new McpClientPool({ mute }, { workspaceRoot: root });
    const error = await rejection(pool.get('mute'));
    expect(error.message).toMatch(/^MCP server mute did not answer initialize within 2 s; check that `.*node` runs an MCP server on stdio, or raise mcp\.mute\.startup_timeout_secs$/);
    expect(error.code).toBe('mcp_startup_timeout');
    expect(alive(mute.pidFile)).toBe(false);
    await pool.close();
  }, 20_000);

  it('a server that crashes on read: exit code and stderr; later reads say it exited earlier', async () => {
    const crashing = server({ flags: ['--crash-on-read'] });
    const pool = new McpClientPool({ crashing }, { workspaceRoot: root });
    const first = await rejection(read(pool, 'mcp+crashing+fixture://docs/readme'));
    expect(first.message).toBe(
      'mcp+crashing+fixture://docs/readme: MCP server crashing exited during resources/read with exit code 1 (stderr: "fixture: crashing on read (--crash-on-read)")',
    );
    const second = await rejection(read(pool, 'mcp+crashing+fixture://notes/1'));
    expect(second.message).toMatch(/^mcp\+crashing\+fixture:\/\/notes\/1: MCP server crashing exited earlier in this run with exit code 1/);
    await pool.close();
  }, 20_000);

  it('a read slower than request_timeout_secs: names the setting; close stops the busy server', async () => {
    const slow = server({ env: { FIXTURE_SLOW_MS: '10000' }, request_timeout_secs: 0.3 });
    const pool = new McpClientPool({ slow }, { workspaceRoot: root });
    const error = await rejection(read(pool, 'mcp+slow+fixture://slow'));
    expect(error.message).toBe(
      'mcp+slow+fixture://slow: MCP server slow did not answer resources/read within 0.3 s; raise mcp.slow.request_timeout_secs if it is only slow',
    );
    expect(error.code).toBe('mcp_timeout');
    await pool.close();
    expect(alive(slow.pidFile)).toBe(false);
  }, 20_000);

  it('server-everything: static documents, templates, and the blob whose read says text/plain', async () => {
    const pool = new McpClientPool(
      { everything: entry({ command: process.execPath, args: [EVERYTHING, 'stdio'], startup_timeout_secs: 20 }) },
      { workspaceRoot: root },
    );
    try {
      const [features, text1, blob] = await Promise.all([
        read(pool, 'mcp+everything+demo://resource/static/document/features.md'),
        read(pool, 'mcp+everything+demo://resource/dynamic/text/1'),
        read(pool, 'mcp+everything+demo://resource/dynamic/blob/2'),
      ]);
      expect(features).toHaveLength(1);
      expect(features[0]).toMatchObject({ uri: 'demo://resource/static/document/features.md', name: 'features.md', mimeType: 'text/markdown' });
      expect(text(features[0])).toMatch(/^# Everything Server - Features/);
      expect(text1[0]).toMatchObject({ uri: 'demo://resource/dynamic/text/1', name: 'Dynamic Text Resource', mimeType: 'text/plain' });
      // The template says application/octet-stream; the read's own MIME type wins.
      expect(blob[0]).toMatchObject({ uri: 'demo://resource/dynamic/blob/2', name: 'Dynamic Blob Resource', mimeType: 'text/plain' });
      expect(blob[0] !== undefined && isBlobResource(blob[0])).toBe(true);
      const missing = await rejection(read(pool, 'mcp+everything+demo://resource/static/document/nope.md'));
      expect(missing.message).toMatch(/server everything has no resource demo:\/\/resource\/static\/document\/nope\.md/);
    } finally {
      await pool.close();
    }
  }, 30_000);
});
