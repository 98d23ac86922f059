import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JP_BIN, makeSandbox, runJp, snapshotTree } from './helpers/run-jp.ts';

// `jp mcp serve` through the built binary, with the official SDK client over stdio (and the MCP
// Inspector's CLI once), against a workspace whose turns the offline echo model made.
const { root, env } = makeSandbox('jp-mcp-serve-e2e-');
const ws = path.join(root, 'project');
const outside = path.join(root, 'outside-dir');
const NOTES = '# Notes\n\nThe parser should stream.\n';
const PHOTO = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255, 254, 0x0a]);
const sha = (bytes: string | Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const jp = (args: string[], cwd = ws) => runJp(args, { cwd, env, timeoutMs: 30_000 });

/** Everything the server sent this run, to look for paths in. */
const sent: string[] = [];
const clients: Client[] = [];

async function connect(extra: string[] = []): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [JP_BIN, 'mcp', 'serve', '-w', ws, ...extra], env: env as Record<string, string>, stderr: 'pipe' });
  transport.stderr?.on('data', (chunk: Buffer) => sent.push(chunk.toString('utf8')));
  const client = new Client({ name: 'jp-e2e', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  sent.push(JSON.stringify({ capabilities: client.getServerCapabilities(), instructions: client.getInstructions(), info: client.getServerVersion() }));
  return client;
}

async function read(client: Client, uri: string) {
  const result = await client.readResource({ uri });
  sent.push(JSON.stringify(result));
  return result.contents[0] as { uri: string; mimeType?: string; text?: string; blob?: string; _meta?: Record<string, unknown> };
}

async function readError(client: Client, uri: string): Promise<{ code: number; message: string }> {
  try {
    await client.readResource({ uri });
  } catch (error) {
    const { code, message } = error as { code: number; message: string };
    sent.push(message);
    return { code, message };
  }
  throw new Error(`${uri} was read`);
}

let reviewed = '';
let other = '';
let ids: string[] = [];

beforeAll(async () => {
  mkdirSync(ws, { recursive: true });
  mkdirSync(outside, { recursive: true });
  expect((await jp(['init'])).code).toBe(0);
  writeFileSync(path.join(ws, 'notes.md'), NOTES);
  writeFileSync(path.join(outside, 'photo.bin'), PHOTO);
  const first = await jp(['q', '-n', '-m', 'echo', '--title', 'Design review', '-a', 'notes.md', '-a', path.join(outside, 'photo.bin'), 'what do the notes say?']);
  expect(first.code, first.stderr).toBe(0);
  reviewed = /new conversation (\S+)/.exec(first.stderr)![1]!;
  expect((await jp(['q', '-m', 'echo', 'and then?'])).code).toBe(0);
  const second = await jp(['q', '-n', '-m', 'echo', '--title', 'Lunch', 'where to eat']);
  other = /new conversation (\S+)/.exec(second.stderr)![1]!;
  ids = [reviewed, other];
}, 60_000);

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
});

describe('jp mcp serve', () => {
  it('lists each conversation as a markdown resource, and the three templates', async () => {
    const before = snapshotTree(path.join(ws, '.jp'));
    const client = await connect();
    expect(client.getServerCapabilities()?.resources).toEqual({ subscribe: true, listChanged: true });
    expect(client.getInstructions()).toMatch(/watching the files \(fs\.watch\)/);
    const { resources } = await client.listResources();
    sent.push(JSON.stringify(resources));
    expect(resources.map((resource) => resource.uri).sort()).toEqual(ids.map((id) => `jp://conversation/${id}`).sort());
    expect(resources.find((resource) => resource.uri.endsWith(reviewed))).toMatchObject({ name: 'Design review', mimeType: 'text/markdown', annotations: { lastModified: expect.stringMatching(/^20\d\d-/) } });
    const { resourceTemplates } = await client.listResourceTemplates();
    sent.push(JSON.stringify(resourceTemplates));
    expect(resourceTemplates.map((template) => template.uriTemplate).sort()).toEqual([
      'jp://conversation/{id}',
      'jp://conversation/{id}/resource/{sha256}',
      'jp://conversation/{id}/turn/{n}',
    ]);
    // Reading nothing changes: no lock, no file written.
    await read(client, `jp://conversation/${reviewed}`);
    expect(snapshotTree(path.join(ws, '.jp'))).toEqual(before);
  });

  it('reads a transcript, one turn, and snapshots whose bytes equal the attached files', async () => {
    const client = await connect();
    const transcript = await read(client, `jp://conversation/${reviewed}`);
    expect(transcript.mimeType).toBe('text/markdown');
    expect(transcript.text).toMatch(/^# Design review\n/);
    expect(transcript.text).toContain('what do the notes say?');
    expect(transcript.text).toContain('and then?');
    expect(transcript.text).toContain(`\`file:notes.md\`: text/markdown, ${NOTES.length} bytes, sha256 \`${sha(NOTES)}\``);
    expect(transcript.text).toMatch(new RegExp(`\`external:[0-9a-f]{64}/photo\\.bin\`: application/octet-stream, ${PHOTO.length} bytes, sha256 \`${sha(PHOTO)}\``));
    expect(transcript.text).toContain('**Assistant**\n\necho: 1 turn');

    const turn = await read(client, `jp://conversation/${reviewed}/turn/1`);
    expect(turn.text).toMatch(/^# Turn 1 /);
    expect(turn.text).toContain('**User**\n\nand then?');
    expect(turn.text).not.toContain('**User**\n\nwhat do the notes say?');

    const notes = await read(client, `jp://conversation/${reviewed}/resource/${sha(NOTES)}`);
    expect(notes).toMatchObject({ mimeType: 'text/markdown', text: NOTES, _meta: { 'computer.jp/originalUri': 'file:notes.md', 'computer.jp/turn': 0 } });
    const photo = await read(client, `jp://conversation/${reviewed}/resource/${sha(PHOTO)}`);
    expect(Buffer.from(photo.blob!, 'base64').equals(readFileSync(path.join(outside, 'photo.bin')))).toBe(true);
    expect(photo.mimeType).toBe('application/octet-stream');
    expect(photo._meta?.['computer.jp/originalUri']).toMatch(/^external:[0-9a-f]{64}\/photo\.bin$/);
  });

  it('completes {id} by prefix and by title, and {n}', async () => {
    const client = await connect();
    const complete = async (uri: string, name: string, value: string, context?: Record<string, string>) => {
      const result = await client.complete({ ref: { type: 'ref/resource', uri }, argument: { name, value }, ...(context ? { context: { arguments: context } } : {}) });
      sent.push(JSON.stringify(result));
      return result.completion.values;
    };
    expect(await complete('jp://conversation/{id}', 'id', 'lunch')).toEqual([other]);
    expect(await complete('jp://conversation/{id}', 'id', reviewed.slice(0, reviewed.length - 2))).toContain(reviewed);
    expect(await complete('jp://conversation/{id}/turn/{n}', 'n', '', { id: reviewed })).toEqual(['0', '1']);
  });

  it('answers -32002 for an unknown conversation, turn or snapshot', async () => {
    const client = await connect();
    expect(await readError(client, 'jp://conversation/0nosuch-00000')).toMatchObject({ code: -32002, message: expect.stringMatching(/no conversation 0nosuch-00000 in this workspace/) });
    expect(await readError(client, `jp://conversation/${reviewed}/turn/7`)).toMatchObject({ code: -32002, message: expect.stringMatching(/has turns 0 to 1; there is no turn "7"/) });
    expect(await readError(client, `jp://conversation/${reviewed}/turn/x`)).toMatchObject({ code: -32002 });
    expect(await readError(client, `jp://conversation/${reviewed}/resource/${'f'.repeat(64)}`)).toMatchObject({ code: -32002, message: expect.stringMatching(/holds no snapshot/) });
    // A snapshot of another conversation is not served through this one.
    expect((await readError(client, `jp://conversation/${other}/resource/${sha(NOTES)}`)).code).toBe(-32002);
  });

  // Waits on the notifications, not a clock; how soon they come is bench work (issue 36).
  it('notifies a subscriber of a new turn made by another process, and of a new conversation, watching and polling', async () => {
    for (const extra of [[], ['--poll']]) {
      const client = await connect(extra);
      if (extra.length > 0) expect(client.getInstructions()).toMatch(/polling the files every second/);
      const updated: Array<{ uri: string }> = [];
      let listChanged = 0;
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => void updated.push({ uri: notification.params.uri }));
      client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void listChanged++);
      await client.subscribeResource({ uri: `jp://conversation/${other}` });
      const result = await jp(['q', '--id', other, '-m', 'echo', 'one more']);
      expect(result.code, result.stderr).toBe(0);
      // A hang guard only: the loop ends on the notification.
      for (let i = 0; updated.length === 0 && i < 1000; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(updated.map((entry) => entry.uri)).toEqual([`jp://conversation/${other}`]);
      expect((await read(client, `jp://conversation/${other}`)).text).toContain('one more');

      const created = await jp(['q', '-n', '-m', 'echo', 'a new one']);
      ids.push(/new conversation (\S+)/.exec(created.stderr)![1]!);
      for (let i = 0; listChanged === 0 && i < 1000; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(listChanged).toBeGreaterThan(0);
      await client.close();
    }
  }, 60_000);

  it('reads a conversation while other processes append turns to it', async () => {
    const client = await connect();
    const busy = await jp(['q', '-n', '-m', 'echo', '--title', 'busy', 'turn 0']);
    const id = /new conversation (\S+)/.exec(busy.stderr)![1]!;
    let writing = true;
    const writer = (async () => {
      for (let turn = 1; turn <= 4; turn++) expect((await jp(['q', '--id', id, '-m', 'echo', `turn ${turn}`])).code).toBe(0);
      writing = false;
    })();
    let reads = 0;
    while (writing) {
      const text = (await read(client, `jp://conversation/${id}`)).text!;
      expect(text).toContain('turn 0');
      reads++;
    }
    await writer;
    expect(reads).toBeGreaterThan(3);
    const text = (await read(client, `jp://conversation/${id}`)).text!;
    for (let turn = 0; turn <= 4; turn++) expect(text).toContain(`**User**\n\nturn ${turn}`);
  }, 60_000);

  it('serves the others when one conversation is damaged', async () => {
    const client = await connect();
    const damaged = await jp(['q', '-n', '-m', 'echo', '--title', 'to be damaged', 'x']);
    const id = /new conversation (\S+)/.exec(damaged.stderr)![1]!;
    appendFileSync(path.join(ws, '.jp', 'conversations', id, 'events.jsonl'), 'garbage\n{"type":"turn_start","timestamp":"2026-01-01T00:00:00Z"}\n');
    const error = await readError(client, `jp://conversation/${id}`);
    expect(error.code).toBe(-32603);
    expect(error.message).toMatch(/events\.jsonl line \d+ is damaged \(not valid JSON\)/);
    expect((await read(client, `jp://conversation/${reviewed}`)).text).toContain('Design review');
    const { resources } = await client.listResources();
    expect(resources.some((resource) => resource.uri.endsWith(id))).toBe(true);
  });

  it('lets another jp attach a conversation as mcp+jp+jp://conversation/<id>', async () => {
    const other_ws = path.join(root, 'elsewhere');
    mkdirSync(other_ws, { recursive: true });
    expect((await jp(['init'], other_ws)).code).toBe(0);
    const config = path.join(other_ws, '.jp', 'config.toml');
    const block = `[mcp.jp]\ncommand = "node"\nargs = ${JSON.stringify([JP_BIN, 'mcp', 'serve', '-w', ws])}\n`;
    writeFileSync(config, `${readFileSync(config, 'utf8')}\n${block}`);
    const result = await jp(['q', '-n', '-m', 'echo', '-a', `mcp+jp+jp://conversation/${reviewed}`, 'summarise this conversation'], other_ws);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`resource jp://conversation/${reviewed} text/markdown \\d+ bytes sha256:[0-9a-f]{64}`));
    const turn = await jp(['q', '-n', '-m', 'echo', '-a', `mcp+jp+jp://conversation/${reviewed}/resource/${sha(NOTES)}`, 'x'], other_ws);
    expect(turn.code, turn.stderr).toBe(0);
    expect(turn.stdout).toContain(`text/markdown ${NOTES.length} bytes sha256:${sha(NOTES)}`);
  }, 60_000);

  it('is listed by the MCP Inspector CLI, a third-party client', async () => {
    const inspector = path.join(path.dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/package.json')), 'cli', 'build', 'cli.js');
    const { stdout } = await promisify(execFile)(process.execPath, [inspector, '--cli', process.execPath, JP_BIN, 'mcp', 'serve', '-w', ws, '--method', 'resources/list'], { env, timeout: 30_000 });
    sent.push(stdout);
    const listed = JSON.parse(stdout) as { resources: Array<{ uri: string; name: string }> };
    expect(listed.resources.find((resource) => resource.uri === `jp://conversation/${reviewed}`)?.name).toBe('Design review');
  }, 40_000);

  it('never sent an absolute path: not the external file, not the workspace', () => {
    const all = sent.join('\n');
    expect(all.length).toBeGreaterThan(1000);
    expect(all).not.toContain(outside);
    expect(all).not.toContain(ws);
    expect(all).not.toContain(root);
  });
});
