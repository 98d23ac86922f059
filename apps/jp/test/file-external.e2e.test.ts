import { spawn, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, realpathSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JP_BIN, expectOneLineError, makeSandbox, readEvents, runJp, snapshotTree, type JpResult } from './helpers/run-jp.ts';

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

/** Every file under a directory, as bytes. */
function allBytes(dir: string): Buffer {
  const chunks: Buffer[] = [];
  const walk = (current: string): void => {
    for (const name of readdirSync(current)) {
      const full = path.join(current, name);
      if (statSync(full).isDirectory()) walk(full);
      else chunks.push(readFileSync(full));
    }
  };
  walk(dir);
  return Buffer.concat(chunks);
}

// A small PDF as a PDF writer makes it: the binary comment on line 2 marks it as binary.
const PDF = Buffer.concat([
  Buffer.from('%PDF-1.4\n%'),
  Buffer.from([0xe2, 0xe3, 0xcf, 0xd3]),
  Buffer.from('\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'),
]);

// Files outside the workspace become `external:` snapshots whose stored form carries no path
// (RFD 002), and bad file inputs fail with one clear line, exit 4, and .jp/ untouched.
describe('files outside the workspace, through the binary', () => {
  const { root, env } = makeSandbox();
  const ws = path.join(root, 'project');
  const jpDir = path.join(ws, '.jp');
  const secretDir = path.join(root, 'secret-dir');
  const jp = (args: string[]) => runJp(args, { cwd: ws, env, timeoutMs: 15_000 });

  beforeAll(async () => {
    mkdirSync(ws, { recursive: true });
    mkdirSync(secretDir);
    writeFileSync(path.join(secretDir, 'report.pdf'), PDF);
    writeFileSync(path.join(secretDir, 'notes.txt'), 'linked notes\n');
    symlinkSync(path.join(secretDir, 'notes.txt'), path.join(ws, 'notes-link.txt'));
    const init = await jp(['init']);
    expect(init.code, init.stderr).toBe(0);
  });

  it('attaches /…/secret-dir/report.pdf as external:<hash>/report.pdf and writes no trace of its path under .jp/', async () => {
    const result = await jp(['-F', 'json', 'query', '--new', '-m', 'echo', '--attach', path.join(secretDir, 'report.pdf'), 'Summarise the report']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    const uri = `external:${sha256(realpathSync(secretDir))}/report.pdf`;
    const final = JSON.parse(result.stdout.trim().split('\n').at(-1)!);
    expect(final.text).toContain(`  resource ${uri} application/pdf ${PDF.length} bytes sha256:${sha256(PDF)}`);
    expect(uri).toMatch(/^external:[0-9a-f]{64}\/report\.pdf$/);

    const stored = allBytes(jpDir);
    expect(stored.length).toBeGreaterThan(PDF.length);
    expect(stored.includes('secret-dir')).toBe(false);
    expect(stored.includes(root)).toBe(false);
    expect(stored.includes(secretDir)).toBe(false);

    // The declaration is the URI itself; a follow-up finds it in the stream and reads nothing.
    const events = readEvents(ws, final.conversation);
    const delta = events.find((event) => event.type === 'config_delta');
    expect(delta?.delta.conversation.attachments).toEqual([uri]);
    const followUp = await jp(['query', 'And?']);
    expect(followUp.code, followUp.stderr).toBe(0);
    expect(followUp.stderr).toBe('');
    expect(followUp.stdout).toContain(`turn 1: "And?"`);
    expect(readEvents(ws, final.conversation).filter((event) => event.type === 'chat_request').at(-1)).not.toHaveProperty('resources');
  });

  it('attaches a symlink inside the workspace that leads outside as an external snapshot', async () => {
    const result = await jp(['query', '--new', '-m', 'echo', '--attach', 'notes-link.txt', 'x']);
    expect(result.code, result.stderr).toBe(0);
    const uri = `external:${sha256(realpathSync(secretDir))}/notes.txt`;
    expect(result.stdout).toContain(`  resource ${uri} text/plain 13 bytes sha256:${sha256('linked notes\n')}`);
    expect(allBytes(jpDir).includes('secret-dir')).toBe(false);
  });

  it('refuses external: typed by hand', async () => {
    const before = snapshotTree(jpDir);
    const typed = `external:${sha256('/anywhere')}/report.pdf`;
    const result = await jp(['query', '--new', '-m', 'echo', '--attach', typed, 'x']);
    expectOneLineError(result, 4, /is a snapshot of a file outside the workspace and cannot be read again; attach the file by its path$/);
    expect(snapshotTree(jpDir)).toEqual(before);
  });

  it('refuses to declare an outside file for later (attachment add): its path would be lost', async () => {
    const before = snapshotTree(jpDir);
    const result = await jp(['attachment', 'add', path.join(secretDir, 'report.pdf')]);
    expectOneLineError(result, 4, /cannot be declared for later; attach it to a query with --attach$/);
    expect(snapshotTree(jpDir)).toEqual(before);
  });
});

describe('bad file inputs through the binary', () => {
  const { root, env } = makeSandbox();
  const ws = path.join(root, 'project');
  const jpDir = path.join(ws, '.jp');
  const jp = (args: string[]) => runJp(args, { cwd: ws, env, timeoutMs: 15_000 });
  const server = net.createServer();

  /** Runs jp through sh, so argv can carry bytes that are not UTF-8 (`printf '\351'`). */
  const jpRaw = (script: string): Promise<JpResult> =>
    new Promise((resolve, reject) => {
      const child = spawn('/bin/sh', ['-c', script, 'sh', process.execPath, JP_BIN], { cwd: ws, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
    });

  beforeAll(async () => {
    mkdirSync(path.join(ws, 'mixed'), { recursive: true });
    execFileSync('mkfifo', [path.join(ws, 'pipe')]);
    await new Promise<void>((done) => server.listen(path.join(ws, 'sock'), done));
    writeFileSync(path.join(ws, 'huge.bin'), '');
    truncateSync(path.join(ws, 'huge.bin'), 2 * 1024 * 1024 * 1024); // 2 GiB of holes
    writeFileSync(path.join(ws, 'big.txt'), 'x'.repeat(600 * 1024));
    writeFileSync(Buffer.concat([Buffer.from(`${ws}/caf`), Buffer.from([0xe9]), Buffer.from('.txt')]), 'latin-1 name\n');
    writeFileSync(path.join(ws, 'mixed', 'ok.txt'), 'ok\n');
    writeFileSync(Buffer.concat([Buffer.from(`${ws}/mixed/r`), Buffer.from([0xe9]), Buffer.from('sum\u00e9.txt')]), 'x');
    const init = await jp(['init']);
    expect(init.code, init.stderr).toBe(0);
  });

  afterAll(async () => {
    await new Promise((done) => server.close(done));
  });

  const cases: Array<{ name: string; args: string[]; message: RegExp }> = [
    { name: 'file: of a FIFO', args: ['--attach', 'file:pipe'], message: /^jp: file:pipe is not a regular file \(a FIFO, socket or device\)/ },
    { name: 'a unix socket', args: ['--attach', 'sock'], message: /^jp: sock is not a regular file/ },
    {
      name: 'a 2 GiB sparse file with size_policy=reject',
      args: ['-c', 'conversation.attachment.size_policy=reject', '--attach', 'huge.bin'],
      message: /^jp: huge\.bin is 2147483648 bytes, over the limit of 524288 bytes; set conversation\.attachment\.size_policy/,
    },
    {
      name: 'an oversize file under the default policy (ask) without a terminal',
      args: ['--attach', 'big.txt'],
      message: /^jp: big\.txt is 614400 bytes, over the limit of 524288 bytes; set conversation\.attachment\.size_policy to "truncate" or "allow"/,
    },
    { name: 'a directory outside the workspace', args: ['--attach', '..'], message: /^jp: \.\. is a directory outside the workspace/ },
  ];

  for (const testCase of cases) {
    it(`${testCase.name}: one line, exit 4, .jp/ unchanged`, async () => {
      const before = snapshotTree(jpDir);
      const result = await jp(['query', '--new', '-m', 'echo', ...testCase.args, 'x']);
      expectOneLineError(result, 4, testCase.message);
      expect(snapshotTree(jpDir)).toEqual(before);
    });
  }

  it('a path whose bytes are not UTF-8, passed raw in argv: one line, exit 4, .jp/ unchanged', async () => {
    const before = snapshotTree(jpDir);
    const result = await jpRaw(`exec "$1" "$2" query --new -m echo --attach "$(printf 'caf\\351.txt')" x`);
    expectOneLineError(result, 4, /^jp: no such file or directory: caf\ufffd\.txt; the path has bytes that are not valid UTF-8 .* so rename it$/);
    expect(snapshotTree(jpDir)).toEqual(before);
  });

  it('a directory holding a name that is not UTF-8: the file is skipped with a warning, the rest attached', async () => {
    const result = await jp(['query', '--new', '-m', 'echo', '--attach', 'mixed/', 'x']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('jp: warning: mixed/: skipped mixed/r\\xe9sumé.txt, its name is not valid UTF-8; rename it to attach it');
    expect(result.stdout).toContain(`resource file://${ws}/mixed/ok.txt text/plain 3 bytes`);
    expect(result.stdout.match(/ resource /g)).toHaveLength(1);
  });
});

describe('the size prompt on a terminal', () => {
  const { root, env } = makeSandbox();
  const ws = path.join(root, 'project');

  /** Runs jp under `script`, which gives it a pseudo-terminal for stdin and stderr, and types `keys`. */
  const jpOnTerminal = (args: string[], keys: string): Promise<JpResult> =>
    new Promise((resolve, reject) => {
      const command = [process.execPath, JP_BIN, ...args].map((arg) => `'${arg}'`).join(' ');
      const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: ws, env: { ...env, TERM: 'dumb' }, stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr: '' });
      });
      // Keys wait in the terminal's input queue until the prompt reads them.
      child.stdin.write(keys);
    });

  beforeAll(async () => {
    mkdirSync(ws, { recursive: true });
    writeFileSync(path.join(ws, 'big.txt'), 'y'.repeat(600 * 1024));
    expect((await runJp(['init'], { cwd: ws, env })).code).toBe(0);
  });

  it('asks under the default policy and truncates when told to', async () => {
    const result = await jpOnTerminal(['-F', 'json', 'query', '--new', '-m', 'echo', '--attach', 'big.txt', 'x'], '\x1b[A\r');
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toContain('big.txt is 600 KiB, over the 512 KiB limit');
    const final = JSON.parse(result.stdout.trim().split(/\r?\n/).at(-1)!);
    const request = readEvents(ws, final.conversation).find((event) => event.type === 'chat_request')!;
    expect(request.resources).toHaveLength(1);
    expect(request.resources[0].text).toBe('y'.repeat(512 * 1024));
    expect(request.resources[0].description).toBe('truncated: the first 524288 of 614400 bytes (truncation chosen at the prompt, limit 524288 bytes)');
  });

  it('stops the query with exit 4 when the answer is the default, reject', async () => {
    const before = snapshotTree(path.join(ws, '.jp'));
    const result = await jpOnTerminal(['query', '--new', '-m', 'echo', '--attach', 'big.txt', 'x'], '\r');
    expect(result.code, result.stdout).toBe(4);
    expect(result.stdout).toContain('jp: big.txt is 614400 bytes, over the limit of 524288 bytes; not attached, as answered at the prompt');
    expect(snapshotTree(path.join(ws, '.jp'))).toEqual(before);
  });
});
