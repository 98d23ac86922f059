import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { JP_BIN, makeSandbox, readEvents } from './helpers/run-jp.ts';

// The npm package (issue O): `npm pack` of the built app, installed offline into a temporary
// prefix with an empty npm cache, then used as a user would.
const app = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { root, env } = makeSandbox('jp-package-');
const prefix = path.join(root, 'prefix');
const run = (command: string, args: string[], cwd: string, extra: NodeJS.ProcessEnv = {}) =>
  spawnSync(command, args, { cwd, env: { ...env, ...extra }, encoding: 'utf8', timeout: 120_000 });
let tarball = '';
let installed = '';

describe('the npm package', { timeout: 180_000 }, () => {
  beforeAll(() => {
    const packDir = mkdtempSync(path.join(tmpdir(), 'jp-pack-'));
    const packed = run('npm', ['pack', '--silent', '--pack-destination', packDir], app, { npm_config_cache: path.join(root, 'pack-cache') });
    expect(packed.status, packed.stderr).toBe(0);
    tarball = path.join(packDir, readdirSync(packDir).find((name) => name.endsWith('.tgz'))!);
    const install = run('npm', ['install', '-g', '--offline', '--no-audit', '--no-fund', '--prefix', prefix, tarball], root, { npm_config_cache: path.join(root, 'empty-cache') });
    expect(install.status, install.stderr).toBe(0);
    installed = path.join(prefix, 'bin', 'jp');
  });

  it('is one tarball with the bundle, README, licence, man page and completions, and no dependencies', () => {
    const listing = run('tar', ['-tzf', tarball], root).stdout.split('\n');
    for (const file of ['package/dist/jp.js', 'package/README.md', 'package/LICENSE', 'package/man/jp.1', 'package/completions/jp.bash', 'package/completions/_jp', 'package/completions/jp.fish', 'package/package.json']) {
      expect(listing).toContain(file);
    }
    const manifest = JSON.parse(run('tar', ['-xzOf', tarball, 'package/package.json'], root).stdout) as Record<string, unknown>;
    expect(manifest).toMatchObject({ name: 'jp-llm', bin: { jp: './dist/jp.js' }, engines: { node: '>=20.19' }, man: ['./man/jp.1'] });
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.private).toBeUndefined();
    expect(statSync(tarball).size).toBeLessThan(10 * 1024 * 1024);
  });

  it('installs offline into a prefix and runs: --version, init, an echo query with a file', () => {
    const version = run(installed, ['--version'], root);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const ws = path.join(root, 'ws');
    mkdirSync(ws);
    writeFileSync(path.join(ws, 'notes.md'), 'hello from the package\n');
    expect(run(installed, ['init', '--no-gitignore'], ws).status).toBe(0);
    const query = run(installed, ['-F', 'json', 'query', '--new', '-m', 'echo', '--attach', 'notes.md', 'what is this?'], ws);
    expect(query.status, query.stderr).toBe(0);
    const { conversation } = JSON.parse(query.stdout.trim().split('\n').at(-1)!);
    const request = readEvents(ws, conversation).find((event) => event.type === 'chat_request')!;
    expect(request.resources[0]).toMatchObject({ name: 'notes.md', text: 'hello from the package\n' });
  });

  it('installs the man page, which man renders without a warning', () => {
    const page = path.join(prefix, 'share', 'man', 'man1', 'jp.1');
    expect(statSync(page).isFile()).toBe(true);
    const man = run('man', ['--warnings', '-l', page], root, { MANWIDTH: '80', MANPAGER: 'cat', PAGER: 'cat' });
    expect(man.status, man.stderr).toBe(0);
    expect(man.stderr).toBe('');
    for (const section of ['SYNOPSIS', 'GLOBAL OPTIONS', 'COMMANDS', 'EXIT STATUS', 'ENVIRONMENT', 'FILES']) expect(man.stdout).toContain(section);
    for (const command of ['jp query', 'jp chat', 'jp attachment add', 'jp conversation fork', 'jp mcp serve']) expect(man.stdout).toContain(command);
  });

  it('says in one line which Node.js it needs on an older one', () => {
    const old = run(process.execPath, ['--import', 'data:text/javascript,Object.defineProperty(process.versions,"node",{value:"18.20.0"})', JP_BIN, '--version'], root);
    expect(old.status).toBe(1);
    expect(old.stdout).toBe('');
    expect(old.stderr).toBe('jp: jp needs Node.js 20.19 or newer, and this is Node.js 18.20.0; install a newer Node.js (nodejs.org, or nvm install 20)\n');
  });
});
