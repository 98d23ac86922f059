import { chmodSync, cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { JP_BIN, expectOneLineError, makeSandbox, runJp, snapshotTree } from './helpers/run-jp.ts';

// Each bad input gives one clear line on stderr, the documented exit code, no stack trace, and
// leaves .jp/ byte for byte as it was.
describe('bad input through the binary', () => {
  const { root, env } = makeSandbox();
  const ws = path.join(root, 'project');
  const jpDir = path.join(ws, '.jp');
  let conversation = '';

  beforeAll(async () => {
    mkdirSync(path.join(ws, 'only-ignored'), { recursive: true });
    writeFileSync(path.join(ws, 'ok.txt'), 'fine\n');
    writeFileSync(path.join(ws, 'only-ignored', '.gitignore'), '*.log\n');
    writeFileSync(path.join(ws, 'only-ignored', 'debug.log'), 'noise\n');
    writeFileSync(path.join(ws, 'secret.txt'), 'no reading\n');
    chmodSync(path.join(ws, 'secret.txt'), 0o000);
    expect((await runJp(['init'], { cwd: ws, env })).code).toBe(0);
    const first = await runJp(['-F', 'json', 'query', '--new', '-m', 'echo', '--attach', 'ok.txt', 'hello'], { cwd: ws, env });
    expect(first.code, first.stderr).toBe(0);
    conversation = JSON.parse(first.stdout.trim().split('\n').at(-1)!).conversation;
  });

  const cases: Array<{ name: string; args: () => string[]; code: number; message: RegExp }> = [
    { name: 'a missing file', args: () => ['query', '--attach', 'nope.txt', 'x'], code: 4, message: /nope\.txt/ },
    { name: 'a glob matching nothing', args: () => ['query', '--attach', 'src/**/*.rs', 'x'], code: 4, message: /src\/\*\*\/\*\.rs/ },
    { name: 'a directory with nothing left after .gitignore', args: () => ['query', '--attach', 'only-ignored/', 'x'], code: 4, message: /only-ignored/ },
    { name: 'an unknown conversation id', args: () => ['query', '--id', 'zzzzzzzzz-zzzzz', 'x'], code: 2, message: /no conversation zzzzzzzzz-zzzzz/ },
    { name: 'a malformed -c', args: () => ['-c', 'assistant.model', 'query', 'x'], code: 2, message: /malformed -c "assistant\.model"/ },
    { name: 'an unknown -c key', args: () => ['-c', 'assistant.modle=echo', 'query', 'x'], code: 2, message: /unknown key assistant\.modle/ },
    { name: 'a new conversation whose attachment fails', args: () => ['query', '--new', '-m', 'echo', '--attach', 'ok.txt', '--attach', 'gone.txt', 'x'], code: 4, message: /gone\.txt/ },
  ];

  for (const testCase of cases) {
    it(`${testCase.name}: clear error, exit ${testCase.code}, .jp/ unchanged`, async () => {
      const before = snapshotTree(jpDir);
      const result = await runJp(testCase.args(), { cwd: ws, env });
      expectOneLineError(result, testCase.code, testCase.message);
      expect(snapshotTree(jpDir)).toEqual(before);
      expect(conversation).not.toBe('');
    });
  }

  it('an unreadable file: exit 4 naming it, .jp/ unchanged', async () => {
    // Root reads anything, so as root the binary runs as an unprivileged user for this case, from
    // a copy of the (self-contained) bundle that user can reach wherever the checkout lives.
    const asRoot = process.getuid?.() === 0;
    const bin = path.join(root, 'dist', 'jp.js');
    if (asRoot) {
      cpSync(path.dirname(JP_BIN), path.dirname(bin), { recursive: true });
      for (const dir of [root, ws, path.dirname(bin)]) chmodSync(dir, 0o755);
    }
    const before = snapshotTree(jpDir);
    const result = await runJp(['query', '--new', '-m', 'echo', '--attach', 'secret.txt', 'x'], {
      cwd: ws,
      env,
      ...(asRoot ? { uid: 65534, gid: 65534, bin } : {}),
    });
    expectOneLineError(result, 4, /secret\.txt/);
    expect(result.stderr).toMatch(/permission denied/i);
    expect(snapshotTree(jpDir)).toEqual(before);
  });

  it('jp query outside a workspace uses the user workspace and says so; nothing lands where the user stands', async () => {
    const outside = path.join(root, 'elsewhere');
    mkdirSync(outside);
    const result = await runJp(['query', '--new', '-m', 'echo', 'x'], { cwd: outside, env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr.split('\n')[0]).toMatch(/^jp: no \.jp\/ here or above: using your user workspace .*`jp init`/);
    expect(snapshotTree(outside)).toEqual({});
  });

  it('a named workspace that does not exist: exit 2, names where the name came from, writes nothing', async () => {
    const outside = path.join(root, 'elsewhere-named');
    mkdirSync(outside);
    const missing = path.join(root, 'no-such-workspace');
    const result = await runJp(['query', '--new', '-m', 'echo', 'x'], { cwd: outside, env: { ...env, JP_WORKSPACE: missing } });
    expectOneLineError(result, 2, /JP_WORKSPACE/);
    expect(snapshotTree(outside)).toEqual({});
  });

  it('jp query with no conversation selected starts one and says so (issue N); attachment ls still asks for one', async () => {
    const other = path.join(root, 'fresh');
    mkdirSync(other);
    expect((await runJp(['init'], { cwd: other, env })).code).toBe(0);
    const ls = await runJp(['attachment', 'ls'], { cwd: other, env });
    expectOneLineError(ls, 2, /no active conversation; pass --id, or start a conversation with `jp query --new`/);
    const result = await runJp(['query', '-m', 'echo', 'x'], { cwd: other, env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr.split('\n')[0]).toBe('jp: no active conversation: starting a new one with echo');
  });

  it('-v adds the stack trace', async () => {
    const result = await runJp(['-v', 'query', '--attach', 'nope.txt', 'x'], { cwd: ws, env });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/\n\s+at /);
  });

  it('-F json reports the error as JSON on stderr with its code', async () => {
    const result = await runJp(['-F', 'json', 'query', '--attach', 'nope.txt', 'x'], { cwd: ws, env });
    expect(result.code).toBe(4);
    const error = JSON.parse(result.stderr.trim());
    expect(error.error).toMatchObject({ exitCode: 4 });
    expect(error.error.message).toMatch(/nope\.txt/);
  });
});
