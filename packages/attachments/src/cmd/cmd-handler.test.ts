import fs from 'node:fs/promises';
import path from 'node:path';
import { AttachmentError, JpError, isBlobResource, type Resource } from '@jp/core';
import { quote } from 'shell-quote';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HandlerContext } from '../handler.ts';
import { tempWorkspace, type TempWorkspace } from '../test-support/temp-workspace.ts';
import { createCmdHandler } from './cmd-handler.ts';
import { rejectionOf } from '../test-support/rejection.ts';

const handler = createCmdHandler();
const node = process.execPath;
let ws: TempWorkspace;

beforeEach(async () => {
  ws = await tempWorkspace();
});
afterEach(async () => {
  await ws.cleanup();
});

/** `cmd:<node> -e <script>` — the line form, independent of PATH. */
const nodeLine = (script: string, ...args: string[]) => `cmd:${quote([node, '-e', script, ...args])}`;
/** `cmd://<node>?arg=-e&arg=<script>…` — the URL form. */
const nodeUrl = (script: string, params = '') => `cmd://${node}?arg=-e&arg=${encodeURIComponent(script)}${params}`;

async function attach(input: string, ctx: HandlerContext = ws.ctx()): Promise<Resource> {
  const [resource, ...rest] = await handler.resolve([await handler.validate(input, ctx)], ctx);
  expect(rest).toEqual([]);
  return resource!;
}

const failure = (promise: Promise<unknown>): Promise<Error> => rejectionOf(promise, JpError);

describe('cmd handler: declarations and identity', () => {
  it('keeps the input as given (trimmed) as declaration and URI; covers only itself', async () => {
    for (const input of ['cmd://git?arg=diff&arg=--cached', 'cmd:git diff --cached', ' cmd:git  diff   --cached\n']) {
      expect(await handler.validate(input, ws.ctx())).toBe(input.trim());
    }
    expect(handler.covers('cmd:git diff', 'cmd:git diff', ws.ctx())).toBe(true);
    expect(handler.covers('cmd:git diff', 'cmd:git  diff', ws.ctx())).toBe(false);
    expect(handler.covers('cmd:git diff', 'cmd://git?arg=diff', ws.ctx())).toBe(false);
  });

  it('checks the syntax when validating, without running anything', async () => {
    const marker = path.join(ws.root, 'ran');
    await handler.validate(nodeLine(`require('fs').writeFileSync(${JSON.stringify(marker)}, '')`), ws.ctx());
    await expect(fs.access(marker)).rejects.toThrow();
    const error = await failure(handler.validate('cmd:git log | head', ws.ctx()));
    expect(error).toBeInstanceOf(AttachmentError);
    expect(error.message).toBe('cmd:git log | head: cmd: runs one program without a shell; `|` is not supported — wrap it in a script');
    // A missing program is found out when it runs.
    expect(await handler.validate('cmd:jp-no-such-program-4c1d', ws.ctx())).toBe('cmd:jp-no-such-program-4c1d');
  });
});

describe('cmd handler: running', () => {
  it('snapshots stdout as text, named by the command line, from both forms', async () => {
    const script = `process.stdout.write('hello ' + process.argv.slice(1).join(','))`;
    const line = nodeLine(script, 'a b', '$HOME');
    expect(await attach(line)).toEqual({ uri: line, name: `${quote([node])} -e ${quote([script])} 'a b' \\$HOME`, mimeType: 'text/plain', text: 'hello a b,$HOME' });
    const url = nodeUrl(script, '&arg=x%20y');
    expect(await attach(url)).toMatchObject({ uri: url, mimeType: 'text/plain', text: 'hello x y' });
  });

  it('runs in the workspace root whatever the cwd, with the user environment', async () => {
    const sub = await ws.mkdir('deep/er');
    process.env.JP_CMD_TEST_VALUE = 'from the environment';
    try {
      const resource = await attach(nodeLine(`process.stdout.write(process.cwd() + '|' + process.env.JP_CMD_TEST_VALUE)`), ws.ctx({ cwd: sub }));
      expect(resource).toMatchObject({ text: `${ws.root}|from the environment` });
    } finally {
      delete process.env.JP_CMD_TEST_VALUE;
    }
  });

  it('runs a program given by a path from the workspace root', async () => {
    await ws.write('scripts/hi.sh', '#!/bin/sh\nprintf "hi %s" "$1"\n');
    await fs.chmod(path.join(ws.root, 'scripts/hi.sh'), 0o755);
    const sub = await ws.mkdir('src');
    expect(await attach('cmd://./scripts/hi.sh?arg=there', ws.ctx({ cwd: sub }))).toMatchObject({ name: './scripts/hi.sh there', text: 'hi there' });
    expect(await attach('cmd:scripts/hi.sh you')).toMatchObject({ text: 'hi you' });
  });

  it('gives non-UTF-8 or NUL-containing output as a blob', async () => {
    const resource = await attach(nodeLine(`process.stdout.write(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]))`));
    expect(resource).toMatchObject({ mimeType: 'application/octet-stream' });
    expect(isBlobResource(resource) && [...resource.blob]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]);
    expect(await attach(nodeLine(`process.stdout.write('ünïcode ✓')`))).toMatchObject({ mimeType: 'text/plain', text: 'ünïcode ✓' });
  });

  it('copies the description parameter', async () => {
    expect(await attach(nodeUrl(`process.stdout.write('x')`, '&description=the%20build%20log'))).toMatchObject({ description: 'the build log', text: 'x' });
    expect(await attach(nodeUrl(`process.stdout.write('x')`))).not.toHaveProperty('description');
  });

  it('runs each declaration once, in order, and reports progress', async () => {
    const updates: string[] = [];
    const ctx = { ...ws.ctx(), progress: { update: (done: number, label: string) => updates.push(`${done} ${label}`) } };
    const first = nodeLine(`process.stdout.write('1')`);
    const second = nodeUrl(`process.stdout.write('2')`);
    const resources = await handler.resolve([first, second, first], ctx);
    expect(resources.map((resource) => 'text' in resource && resource.text)).toEqual(['1', '2']);
    expect(updates).toEqual([`0 ${resources[0]!.name}`, `1 ${resources[1]!.name}`]);
  });

  it('refreshes by running again', async () => {
    const counter = path.join(ws.root, 'count');
    const uri = nodeLine(`const fs = require('fs'); const n = fs.existsSync('count') ? +fs.readFileSync('count', 'utf8') + 1 : 1; fs.writeFileSync('count', String(n)); process.stdout.write('run ' + n)`);
    expect(await attach(uri)).toMatchObject({ text: 'run 1' });
    expect(await handler.refresh(uri, ws.ctx())).toMatchObject({ uri, text: 'run 2' });
    expect(await fs.readFile(counter, 'utf8')).toBe('2');
  });
});

describe('cmd handler: failures', () => {
  const failing = `process.stdout.write('partial'); console.error('line 1\\nline 2\\nfatal: it broke'); process.exit(2)`;

  it('a non-zero exit fails with the code and stderr tail, and says how to allow it', async () => {
    const line = nodeLine(failing);
    const error = await failure(attach(line));
    expect(error).toBeInstanceOf(AttachmentError);
    expect(error.message).toMatch(/^cmd:.* exited with code 2: line 1 \| line 2 \| fatal: it broke; fix the command, or to attach its output anyway use cmd:\/\/.*&allow_failure=true$/);
    expect(error.message).not.toContain('\n');
    const url = nodeUrl(failing);
    expect((await failure(attach(url))).message).toBe(`${url} exited with code 2: line 1 | line 2 | fatal: it broke; fix the command, or to attach its output anyway add &allow_failure=true to ${url}`);
    expect((await failure(attach(nodeLine('process.exit(1)')))).message).toMatch(/exited with code 1 \(no stderr\); fix the command/);
  });

  it('the allow_failure hint of the cmd: form is a URL that runs the same command', async () => {
    const message = (await failure(attach(nodeLine(failing)))).message;
    const hinted = /use (cmd:\/\/\S+)$/.exec(message)?.[1] ?? '';
    expect(await attach(hinted)).toMatchObject({ uri: hinted, text: expect.stringMatching(/^partial\n--- stderr ---\nline 1\n/), description: expect.stringMatching(/^exited with code 2; /) });
  });

  it('allow_failure=true attaches stdout, then stderr under a separator, and says how it ended', async () => {
    expect(await attach(nodeUrl(failing, '&allow_failure=true&description=tests'))).toMatchObject({
      text: 'partial\n--- stderr ---\nline 1\nline 2\nfatal: it broke\n',
      description: 'tests; exited with code 2; stderr follows stdout after a "--- stderr ---" line',
    });
    expect(await attach(nodeUrl(`process.kill(process.pid, 'SIGTERM')`, '&allow_failure=true'))).toMatchObject({ text: '', description: 'killed by SIGTERM' });
    expect(await attach(nodeUrl('process.exitCode = 1', '&allow_failure=true'))).toMatchObject({ text: '', description: 'exited with code 1' });
    expect(await attach(nodeUrl('', '&allow_failure=true'))).not.toHaveProperty('description');
  });

  it('a successful run attaches stdout only, whatever it wrote to stderr', async () => {
    const resource = await attach(nodeUrl(`process.stdout.write('out'); console.error('noise')`, '&allow_failure=true'));
    expect(resource).toMatchObject({ text: 'out' });
    expect(resource).not.toHaveProperty('description');
  });

  it('keeps the last 4 KiB of a long stderr and says how much came before', async () => {
    const resource = await attach(nodeUrl(`process.stderr.write('x'.repeat(10000) + 'END'); process.exit(1)`, '&allow_failure=true'));
    const text = 'text' in resource ? resource.text : '';
    expect(text).toBe(`--- stderr ---\n[the first ${10003 - 4096} bytes of stderr were not kept]\n${'x'.repeat(4093)}END`);
  });

  it('a failed run with binary stdout keeps the bytes and puts the stderr tail in the description', async () => {
    const resource = await attach(nodeUrl(`process.stdout.write(Buffer.from([0, 1, 2])); console.error('bad\\nworse'); process.exit(4)`, '&allow_failure=true'));
    expect(resource).toMatchObject({ mimeType: 'application/octet-stream', description: 'exited with code 4; stderr: bad | worse' });
  });

  it('a signal death fails naming the signal', async () => {
    expect((await failure(attach(nodeLine(`process.kill(process.pid, 'SIGKILL')`)))).message).toMatch(/ was killed by SIGKILL \(no stderr\); fix the command/);
  });

  it('a missing program, a missing path, a missing interpreter, a non-executable file', async () => {
    expect((await failure(attach('cmd:jp-no-such-program-4c1d --x'))).message).toBe(
      'cmd:jp-no-such-program-4c1d --x: program jp-no-such-program-4c1d not found on PATH; install it or check its name',
    );
    expect((await failure(attach('cmd://./nope.sh'))).message).toMatch(/^cmd:\/\/\.\/nope\.sh: program \.\/nope\.sh not found \(paths start at the workspace root\)/);
    await ws.write('odd.sh', '#!/nonexistent/interpreter\n');
    await fs.chmod(path.join(ws.root, 'odd.sh'), 0o755);
    expect((await failure(attach('cmd:./odd.sh'))).message).toMatch(/\.\/odd\.sh exists but its interpreter \(the #! line\) was not found/);
    await ws.write('plain.sh', '#!/bin/sh\necho hi\n');
    // Without an x bit execve refuses even root.
    expect((await failure(attach('cmd:./plain.sh'))).message).toMatch(/\.\/plain\.sh is not executable \(permission denied\)/);
  });

  it('a hanging command times out, with the limit and the setting in the message', async () => {
    const ctx = { ...ws.ctx(), commandLimits: { timeoutMs: 300, maxOutputBytes: 1000 } };
    const line = nodeLine('setTimeout(() => {}, 30000)');
    expect((await failure(attach(line, ctx))).message).toBe(`${line} timed out after 0.3 s; raise conversation.attachment.cmd.timeout_secs`);
  });

  it('too much output stops the command', async () => {
    const ctx = { ...ws.ctx(), commandLimits: { timeoutMs: 10_000, maxOutputBytes: 1000 } };
    const message = (await failure(attach(nodeLine(`process.stdout.write('a'.repeat(5000))`), ctx))).message;
    expect(message).toMatch(/ wrote more than 1000 bytes to stdout and was stopped; narrow the command or raise conversation\.attachment\.cmd\.max_output_bytes$/);
  });

  it('an abort kills the command and is an interruption (exit 130), not an attachment error', async () => {
    const controller = new AbortController();
    const ctx = { ...ws.ctx(), signal: controller.signal };
    const pending = attach(nodeLine('setTimeout(() => {}, 30000)'), ctx);
    setTimeout(() => controller.abort(), 100);
    const error = await failure(pending);
    expect(error).not.toBeInstanceOf(AttachmentError);
    expect((error as JpError).exitCode).toBe(130);
    expect(error.message).toMatch(/was interrupted$/);
  });
});

describe('cmd handler: size policy above the resource limit', () => {
  const big = nodeLine(`process.stdout.write('é'.repeat(600))`); // 1200 bytes

  it('rejects by default, naming the setting', async () => {
    const message = (await failure(attach(big, ws.ctx({ limits: { maxResourceBytes: 1001 } })))).message;
    expect(message).toBe(`${big} is 1200 bytes, over the limit of 1001 bytes; set conversation.attachment.size_policy to "truncate" or "allow" to attach it anyway`);
  });

  it('truncates on a character boundary with a note, or allows it', async () => {
    const truncated = await attach(big, ws.ctx({ limits: { maxResourceBytes: 1001, sizePolicy: 'truncate' } }));
    expect(truncated).toMatchObject({ text: 'é'.repeat(500), description: 'truncated: the first 1000 of 1200 bytes (conversation.attachment.size_policy is "truncate", limit 1001 bytes)' });
    expect(await attach(big, ws.ctx({ limits: { maxResourceBytes: 1001, sizePolicy: 'allow' } }))).toMatchObject({ text: 'é'.repeat(600) });
  });

  it('asks when a person is at the terminal', async () => {
    const asked: string[] = [];
    const ctx = {
      ...ws.ctx({ limits: { maxResourceBytes: 1001, sizePolicy: 'ask' } }),
      askOversize: async (label: string, bytes: number, limit: number) => {
        asked.push(`${label} ${bytes}/${limit}`);
        return 'allow' as const;
      },
    };
    expect(await attach(big, ctx)).toMatchObject({ text: 'é'.repeat(600) });
    expect(asked).toEqual([`${big} 1200/1001`]);
  });
});
