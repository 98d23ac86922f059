import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeSandbox, runJp } from './helpers/run-jp.ts';

// A file git leaves out through .git/info/exclude or the global excludes file is not sent to the
// model either: through the binary, on a tree large enough that jp reads it ahead on a thread.
describe('git excludes through the binary', () => {
  const { root, home, env } = makeSandbox();
  const ws = path.join(root, 'project');
  const jp = (args: string[]) => runJp(args, { cwd: ws, env });
  /** The names of the resources attached at the first turn, as `conversation show` gives them. */
  const attachedNames = async (stdout: string): Promise<string[]> => {
    const id = JSON.parse(stdout.trim().split('\n').at(-1)!).conversation;
    const show = await jp(['-F', 'json', 'conversation', 'show', id]);
    expect(show.code, show.stderr).toBe(0);
    const request = JSON.parse(show.stdout).events.find((event: { type: string }) => event.type === 'chat_request');
    return request.resources.map((resource: { name: string }) => resource.name);
  };
  const write = (relative: string, text: string) => {
    mkdirSync(path.dirname(path.join(ws, relative)), { recursive: true });
    writeFileSync(path.join(ws, relative), text);
  };

  beforeAll(async () => {
    mkdirSync(ws, { recursive: true });
    expect((await jp(['init'])).code).toBe(0);
    write('.git/HEAD', 'ref: refs/heads/main\n');
    write('.git/info/exclude', '# mine only\nsrc/**/*.local\n');
    mkdirSync(path.join(home, '.config', 'git'), { recursive: true });
    writeFileSync(path.join(home, '.config', 'git', 'ignore'), '*.swp\n');
    write('.gitignore', '!keep.swp\n');
    for (let i = 0; i < 240; i++) write(`src/d${i % 4}/f${String(i).padStart(3, '0')}.txt`, `file ${i}\n`);
    write('src/d0/notes.local', 'private notes');
    write('src/d1/.f.swp', 'swap');
    write('src/d1/edit.swp', 'swap');
    write('src/d2/keep.swp', 'kept by .gitignore');
  });

  it('attaching a directory leaves out what info/exclude and ~/.config/git/ignore exclude; .gitignore outranks them', async () => {
    const result = await jp(['-F', 'json', 'query', '--new', '-m', 'echo', '--attach', 'src/', 'What is here?']);
    expect(result.code, result.stderr).toBe(0);
    const names = await attachedNames(result.stdout);
    expect(names).toHaveLength(241);
    expect(names).toContain('src/d2/keep.swp');
    expect(names.filter((name) => name.endsWith('.local') || name.endsWith('edit.swp'))).toEqual([]);
  });

  it('naming an excluded file attaches it', async () => {
    const result = await jp(['-F', 'json', 'query', '--new', '-m', 'echo', '--attach', 'src/d0/notes.local', 'And this?']);
    expect(result.code, result.stderr).toBe(0);
    expect(await attachedNames(result.stdout)).toEqual(['src/d0/notes.local']);
  });
});
