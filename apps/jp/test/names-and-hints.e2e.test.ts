import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectOneLineError, makeSandbox, runJp } from './helpers/run-jp.ts';

// Issue W, the smaller items: `c use|show|fork|rm` take a title as `c ls` prints it (an ambiguous
// one lists the candidates, exit 2); `c ls --limit 0` is a usage error; a glob that matched nothing
// names the directory it was looked for in, also when typed in a subdirectory.

const { root, env } = makeSandbox('jp-names-e2e-');
const ws = path.join(root, 'project');
const jp = (args: string[], cwd = ws) => runJp(args, { cwd, env });
const ids: Record<string, string> = {};

beforeAll(async () => {
  mkdirSync(path.join(ws, 'sub', 'src'), { recursive: true });
  writeFileSync(path.join(ws, 'sub', 'src', 'a.ts'), 'export {};\n');
  expect((await jp(['init'])).code).toBe(0);
  for (const title of ['release notes', 'release plan', 'bug triage']) {
    const made = await jp(['-F', 'json', 'query', '--new', '-m', 'echo', '--title', title, 'x']);
    expect(made.code, made.stderr).toBe(0);
    ids[title] = JSON.parse(made.stdout.trim().split('\n').at(-1)!).conversation;
  }
});

describe('conversations by title', { timeout: 60_000 }, () => {
  it('use, show and fork take a whole title or a unique prefix of one', async () => {
    const use = await jp(['-F', 'json', 'conversation', 'use', 'bug triage']);
    expect(use.code, use.stderr).toBe(0);
    expect(JSON.parse(use.stdout)).toEqual({ active: ids['bug triage'] });
    expect(JSON.parse((await jp(['-F', 'json', 'conversation', 'use', 'Release N'])).stdout)).toEqual({ active: ids['release notes'] });
    const show = await jp(['-F', 'json', 'conversation', 'show', 'release plan']);
    expect(show.code, show.stderr).toBe(0);
    expect(JSON.parse(show.stdout).id).toBe(ids['release plan']);
    const fork = await jp(['-F', 'json', 'conversation', 'fork', 'bug', '--title', 'triage copy']);
    expect(fork.code, fork.stderr).toBe(0);
    expect(JSON.parse(fork.stdout).forkedFrom.id).toBe(ids['bug triage']);
  });

  it('an ambiguous title lists the candidates (exit 2); an unknown one says ids and titles were tried', async () => {
    const ambiguous = await jp(['conversation', 'show', 'release']);
    expectOneLineError(ambiguous, 2, /^jp: 2 conversations have a title starting "release": .+; give the id$/);
    expect(ambiguous.stderr).toContain(`${ids['release notes']} "release notes"`);
    expect(ambiguous.stderr).toContain(`${ids['release plan']} "release plan"`);
    expectOneLineError(await jp(['conversation', 'use', 'nothing like it']), 2, /^jp: no conversation nothing like it in this workspace, by id or title; `jp conversation ls` lists them$/);
  });

  it('rm takes a title', async () => {
    const rm = await jp(['-F', 'json', 'conversation', 'rm', '--yes', 'release plan']);
    expect(rm.code, rm.stderr).toBe(0);
    const listed = JSON.parse((await jp(['-F', 'json', 'conversation', 'ls'])).stdout).conversations.map((c: { id: string }) => c.id);
    expect(listed).not.toContain(ids['release plan']);
    expect(listed).toContain(ids['release notes']);
    // "release" is no longer ambiguous.
    expect(JSON.parse((await jp(['-F', 'json', 'conversation', 'use', 'release'])).stdout)).toEqual({ active: ids['release notes'] });
  });
});

describe('smaller usage errors and hints', { timeout: 60_000 }, () => {
  it('c ls --limit 0 is a usage error', async () => {
    expectOneLineError(await jp(['conversation', 'ls', '--limit', '0']), 2, /^jp: --limit takes a whole number of at least 1, not 0$/);
  });

  it('a glob typed in a subdirectory that matched nothing names where it was looked for', async () => {
    const result = await jp(['query', '--new', '-m', 'echo', '--attach', 'src/*.rs', 'x'], path.join(ws, 'sub'));
    expectOneLineError(result, 4, /^jp: glob sub\/src\/\*\.rs matched no files under sub\/src\/ \(hidden and \.gitignored files are skipped\)$/);
  });
});
