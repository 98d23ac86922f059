import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectOneLineError, makeSandbox, readStoredEvents, runJp } from './helpers/run-jp.ts';

// Issue W, RFD 032: outside any .jp/, jp uses the user's own workspace at $XDG_DATA_HOME/jp (made
// on first use, said once) for q, chat, c, a and gc; a relative attachment there resolves from the
// current directory and is stored as an external: URI, so no path of the user's is written;
// JP_WORKSPACE and -w name another workspace; jp c ls says which one it lists.

const { root, home, env: sandboxEnv } = makeSandbox('jp-user-ws-e2e-');
const data = path.join(root, 'data');
const env = { ...sandboxEnv, XDG_DATA_HOME: data };
const userJp = path.join(data, 'jp', '.jp');
const elsewhere = path.join(root, 'work', 'notes');
const jp = (args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) => runJp(args, { cwd: options.cwd ?? elsewhere, env: options.env ?? env });
const idOf = (stdout: string): string => JSON.parse(stdout.trim().split('\n').at(-1)!).conversation;

/** Every file under a directory whose bytes contain `text`. */
function filesContaining(dir: string, text: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (entry.isFile() && readFileSync(full).includes(text)) found.push(path.relative(dir, full));
  }
  return found;
}

beforeAll(() => {
  mkdirSync(elsewhere, { recursive: true });
  writeFileSync(path.join(elsewhere, 'todo.txt'), 'buy milk\n');
});

describe('the user workspace', { timeout: 60_000 }, () => {
  it('jp q outside any workspace answers there, made on first use and said once', async () => {
    const first = await jp(['query', '-m', 'echo', 'a quick question']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('a quick question');
    expect(first.stderr).toContain(`jp: no .jp/ here or above: using your user workspace ${path.join(data, 'jp')} (made now;`);
    expect(statSync(userJp).isDirectory()).toBe(true);
    expect(statSync(path.join(data, 'jp')).mode & 0o777).toBe(0o700);
    const second = await jp(['query', '-m', 'echo', 'and another']);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).not.toContain('no .jp/ here or above');
    expect(existsSync(path.join(elsewhere, '.jp'))).toBe(false);
  });

  it('a relative attachment resolves from the current directory and stores no path of the user', async () => {
    const result = await jp(['-F', 'json', 'query', '--new', '-m', 'echo', '--attach', 'todo.txt', 'what is on it?']);
    expect(result.code, result.stderr).toBe(0);
    const id = idOf(result.stdout);
    const [resource] = readStoredEvents(path.join(data, 'jp'), id).find((event) => event.type === 'chat_request')!.resources;
    expect(resource.uri).toMatch(/^external:[0-9a-f]{64}\/todo\.txt$/);
    expect(resource.name).toBe('todo.txt');
    expect(filesContaining(userJp, elsewhere)).toEqual([]);
    expect(filesContaining(userJp, path.join(root, 'work'))).toEqual([]);
  });

  it('c ls, c show, a ls and gc work there; c ls says which workspace it lists', async () => {
    const ls = await jp(['conversation', 'ls']);
    expect(ls.code, ls.stderr).toBe(0);
    expect(ls.stderr).toContain(`workspace: your user workspace ${path.join(data, 'jp')}`);
    expect(ls.stdout.trim().split('\n')).toHaveLength(2);
    const json = JSON.parse((await jp(['-F', 'json', 'conversation', 'ls'])).stdout);
    expect(json.workspace).toEqual({ root: path.join(data, 'jp'), kind: 'user' });
    for (const args of [['conversation', 'show'], ['attachment', 'ls'], ['gc']]) {
      const result = await jp(args);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
    }
  });

  it('JP_WORKSPACE names another workspace, and -w wins over it', async () => {
    const project = path.join(root, 'project');
    const other = path.join(root, 'other');
    for (const dir of [project, other]) {
      mkdirSync(dir, { recursive: true });
      expect((await runJp(['init'], { cwd: dir, env })).code).toBe(0);
    }
    const named = await jp(['-F', 'json', 'query', '-m', 'echo', 'into the project'], { env: { ...env, JP_WORKSPACE: project } });
    expect(named.code, named.stderr).toBe(0);
    expect(readdirSync(path.join(project, '.jp', 'conversations'))).toEqual([idOf(named.stdout)]);
    const listed = JSON.parse((await jp(['-F', 'json', 'conversation', 'ls'], { env: { ...env, JP_WORKSPACE: project } })).stdout);
    expect(listed.workspace).toEqual({ root: project, kind: 'named' });
    const overridden = await jp(['-w', other, '-F', 'json', 'query', '-m', 'echo', 'into the other'], { env: { ...env, JP_WORKSPACE: project } });
    expect(overridden.code, overridden.stderr).toBe(0);
    expect(readdirSync(path.join(other, '.jp', 'conversations'))).toEqual([idOf(overridden.stdout)]);
    expectOneLineError(await jp(['conversation', 'ls'], { env: { ...env, JP_WORKSPACE: path.join(root, 'nowhere') } }), 2, /^jp: workspace directory .*nowhere \(JP_WORKSPACE\) does not exist$/);
    // Inside a project, the project is used, not the user workspace.
    const inside = await jp(['-F', 'json', 'conversation', 'ls'], { cwd: project });
    expect(JSON.parse(inside.stdout).workspace).toEqual({ root: project, kind: 'project' });
  });

  it('without XDG_DATA_HOME it is ~/.local/share/jp; jp init still makes a project workspace', async () => {
    const { XDG_DATA_HOME: _unset, ...withoutData } = env;
    const result = await jp(['query', '-m', 'echo', 'x'], { env: withoutData });
    expect(result.code, result.stderr).toBe(0);
    expect(statSync(path.join(home, '.local', 'share', 'jp', '.jp', 'conversations')).isDirectory()).toBe(true);
    const init = await jp(['init'], { env: withoutData });
    expect(init.code, init.stderr).toBe(0);
    expect(statSync(path.join(elsewhere, '.jp')).isDirectory()).toBe(true);
    expect(JSON.parse((await jp(['-F', 'json', 'conversation', 'ls'], { env: withoutData })).stdout).workspace.kind).toBe('project');
  });
});
