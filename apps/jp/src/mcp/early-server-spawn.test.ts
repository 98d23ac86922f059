import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, describe, expect, it } from 'vitest';
import { adoptingTransport, defaultServerEnvironment, spawnServerEarly } from './early-server-spawn.ts';

const root = mkdtempSync(path.join(tmpdir(), 'jp-early-spawn-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Waits until `file` exists (a sign from the child), failing after a minute rather than hanging. */
async function waitForFile(file: string): Promise<void> {
  for (let waited = 0; !existsSync(file); waited += 20) {
    if (waited > 60_000) throw new Error(`${file} did not appear`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a server started before the client SDK is loaded', () => {
  it('keeps what it wrote before the transport adopted it, and is closed by the transport', async () => {
    const said = path.join(root, 'said');
    // Writes a notification at once, says so with a file, then serves until its input closes.
    const script = `process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'early' } }) + '\\n');
require('node:fs').writeFileSync(${JSON.stringify(said)}, '');
process.stdin.resume(); process.stdin.on('end', () => process.exit(0));`;
    const early = spawnServerEarly({ command: process.execPath, args: ['-e', script], env: {}, cwd: root });
    await waitForFile(said);
    const Transport = adoptingTransport(StdioClientTransport, early);
    const transport = new Transport({ command: 'never-spawned', args: [] });
    const messages: JSONRPCMessage[] = [];
    transport.onmessage = (message) => messages.push(message);
    const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
    await transport.start();
    expect(transport.pid).toBe(early.child.pid);
    await new Promise<void>((resolve) => (messages.length > 0 ? resolve() : (transport.onmessage = (message) => (messages.push(message), resolve()))));
    expect(messages[0]).toMatchObject({ method: 'notifications/message', params: { data: 'early' } });
    await transport.close();
    await closed;
    expect(early.child.exitCode).toBe(0);
  });

  it('fails its start as the SDK does when the command does not exist', async () => {
    const early = spawnServerEarly({ command: path.join(root, 'no-such-server'), args: [], env: {}, cwd: root });
    const transport = new (adoptingTransport(StdioClientTransport, early))({ command: 'never-spawned' });
    await expect(transport.start()).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('gets the environment the SDK gives a server: the safe variables and the configured ones, no others', async () => {
    const out = path.join(root, 'env.json');
    const early = spawnServerEarly({
      command: process.execPath,
      args: ['-e', `require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.env))`],
      env: { SERVER_TOKEN: 'configured' },
      cwd: root,
    });
    await new Promise((resolve) => early.child.once('exit', resolve));
    const seen = JSON.parse((await import('node:fs')).readFileSync(out, 'utf8')) as Record<string, string>;
    expect(seen.SERVER_TOKEN).toBe('configured');
    for (const [key, value] of Object.entries(defaultServerEnvironment())) expect(seen[key]).toBe(value);
    // Nothing else of this process's environment reaches the server (Node may add a few of its own).
    const leaked = Object.keys(process.env).filter((key) => key in seen && !(key in defaultServerEnvironment()) && key !== 'SERVER_TOKEN');
    expect(leaked).toEqual([]);
  });
});
