import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { JP_BIN, makeSandbox, readEvents, runJp, snapshotTree, turnsOf } from './helpers/run-jp.ts';

// jp as a CI job uses it: a shell script capturing ids from JSON output, following up by id,
// forking, and branching on exit codes. `jp` is a wrapper on PATH around the built binary;
// JSON is read with node (jq is not on every machine).
describe('scripting, the way a CI job does it', () => {
  const { root, env } = makeSandbox();
  const ws = path.join(root, 'project');
  const bin = path.join(root, 'bin');

  it('captures ids, follows up, forks and branches on exit codes', () => {
    mkdirSync(ws, { recursive: true });
    mkdirSync(bin);
    writeFileSync(path.join(bin, 'jp'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(JP_BIN)} "$@"\n`);
    chmodSync(path.join(bin, 'jp'), 0o755);
    writeFileSync(path.join(ws, 'a.txt'), 'alpha\n');
    const script = `
set -eu
field() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const l=s.trim().split("\\n").pop();const v=JSON.parse(l)[process.argv[1]];console.log(typeof v==="object"?JSON.stringify(v):v)})' "$1"; }
jp init >/dev/null
id=$(jp q -n -m echo -F json -a a.txt "first" | field conversation)
turn=$(jp q --id "$id" -F json "second" | field turn)
test "$turn" = 1
fork=$(jp -F json conversation fork "$id" --until-turn 0 | field id)
test "$fork" != "$id"
jp -F json conversation ls | field conversations > list.json
set +e
jp q --id nosuchid "x" 2>err.txt; code=$?
set -e
test "$code" = 2
grep -q "no conversation nosuchid" err.txt
set +e
jp q --id "$id" -a missing.txt "x" 2>/dev/null; code=$?
set -e
test "$code" = 4
printf 'piped question\\n' | jp q --id "$id" -F json > piped.json
echo "$id $fork"
`;
    const result = spawnSync('bash', ['-c', script], { cwd: ws, env: { ...env, PATH: `${bin}:${env.PATH}` }, encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    const [id, fork] = result.stdout.trim().split(' ');
    expect(turnsOf(readEvents(ws, id!))).toHaveLength(3);
    expect(turnsOf(readEvents(ws, fork!))).toHaveLength(1);
    expect(turnsOf(readEvents(ws, id!)).at(-1)!.find((e) => e.type === 'chat_request')!.content).toBe('piped question');
  });

  it('--schema prints only the JSON answer and checks it; a mismatch exits 1', async () => {
    const ok = await runJp(['query', '--new', '-m', 'echo', '--schema', '{"type":"object","required":["turns"]}', 'structured please'], { cwd: ws, env });
    expect(ok.code, ok.stderr).toBe(0);
    const answer = JSON.parse(ok.stdout);
    expect(answer.turns[0].query).toBe('structured please');
    expect(ok.stdout.trim().split('\n')).toHaveLength(1);

    writeFileSync(path.join(ws, 'schema.json'), '{"type":"object","required":["verdict"]}');
    const bad = await runJp(['query', '--new', '-m', 'echo', '--schema', '@schema.json', 'x'], { cwd: ws, env });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/the answer does not match --schema: .*verdict/);

    const invalid = await runJp(['query', '--new', '-m', 'echo', '--schema', '{not json', 'x'], { cwd: ws, env });
    expect(invalid.code).toBe(2);
  });

  it('--explain prints the wire request with blobs elided, and writes nothing', async () => {
    writeFileSync(path.join(ws, 'pixel.png'), Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==', 'base64'));
    const before = snapshotTree(path.join(ws, '.jp'));
    const result = await runJp(['-F', 'json', 'query', '--new', '-m', 'anthropic/claude-test', '--explain', '-a', 'pixel.png', '-a', 'a.txt', 'look'], {
      cwd: ws,
      env,
    });
    expect(result.code, result.stderr).toBe(0);
    const explained = JSON.parse(result.stdout);
    expect(explained.provider).toBe('anthropic');
    const content = explained.request.messages[0].content;
    expect(content[0]).toMatchObject({ type: 'text', text: 'look' });
    expect(JSON.stringify(content)).toMatch(/<blob elided: \d+ bytes, sha256:[0-9a-f]{64}>/);
    expect(content.find((block: { type: string }) => block.type === 'document').source.data).toBe('alpha\n');
    expect(snapshotTree(path.join(ws, '.jp'))).toEqual(before);
  });

  it('--no-persist answers without storing; --attach - attaches stdin as a resource', async () => {
    const before = snapshotTree(path.join(ws, '.jp'));
    const transient = await runJp(['query', '--new', '-m', 'echo', '--no-persist', 'just asking'], { cwd: ws, env });
    expect(transient.code, transient.stderr).toBe(0);
    expect(transient.stdout).toContain('"just asking"');
    expect(snapshotTree(path.join(ws, '.jp'))).toEqual(before);

    const piped = await runJp(['-F', 'json', 'query', '--new', '-m', 'echo', '--attach', '-', 'what is this?'], { cwd: ws, env, input: 'log line 1\nlog line 2\n' });
    expect(piped.code, piped.stderr).toBe(0);
    const id = JSON.parse(piped.stdout.trim().split('\n').at(-1)!).conversation;
    const request = turnsOf(readEvents(ws, id))[0]!.find((e) => e.type === 'chat_request')!;
    expect(request.content).toBe('what is this?');
    expect(request.resources).toEqual([
      { uri: expect.stringMatching(/^stdin:[0-9a-f]{64}$/), mimeType: 'text/plain', name: 'stdin', text: 'log line 1\nlog line 2\n' },
    ]);
  });

  it('a reader that stops early (`| head`) ends the output, not the command: no stack trace, its own exit code, the turn stored', () => {
    const { root: sandbox, env: sandboxEnv } = makeSandbox('jp-pipe-');
    const project = path.join(sandbox, 'project');
    mkdirSync(project);
    expect(spawnSync(process.execPath, [JP_BIN, 'init'], { cwd: project, env: sandboxEnv }).status).toBe(0);
    const stderrFile = path.join(sandbox, 'stderr');
    // A 300 000-character query: echo's answer quotes it, far more than a pipe holds, so jp is still
    // writing when `head` has gone.
    const piped = (jpArgs: string) =>
      spawnSync('bash', ['-c', `head -c 300000 /dev/zero | tr '\\0' x | "${process.execPath}" "${JP_BIN}" ${jpArgs} 2>"${stderrFile}" | head -c 100 >/dev/null; echo "\${PIPESTATUS[2]}"`], {
        cwd: project,
        env: sandboxEnv,
        encoding: 'utf8',
      });
    const query = piped('query --new -m echo');
    expect(query.stdout.trim()).toBe('0');
    // Its note, and nothing else: no EPIPE, no stack trace.
    expect(readFileSync(stderrFile, 'utf8')).toMatch(/^jp: new conversation \S+\n$/);
    const listed = JSON.parse(spawnSync(process.execPath, [JP_BIN, '-F', 'json', 'conversation', 'ls'], { cwd: project, env: sandboxEnv, encoding: 'utf8' }).stdout);
    expect(listed.conversations).toHaveLength(1);
    const [turn] = turnsOf(readEvents(project, listed.conversations[0].id));
    expect(turn!.find((event) => event.type === 'chat_request')!.content).toBe('x'.repeat(300_000));

    // The same for a command that only prints: all of the conversation, 600 000 characters and more.
    const shown = piped(`-F json conversation show ${listed.conversations[0].id}`);
    expect(shown.stdout.trim()).toBe('0');
    expect(readFileSync(stderrFile, 'utf8')).toBe('');
  });
});
