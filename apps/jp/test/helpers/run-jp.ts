import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { fileURLToPath } from 'node:url';

/** The built binary; `JP_BIN` points the tests at another build (e.g. one made with `tsup -d`). */
export const JP_BIN = process.env.JP_BIN ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/jp.js');

export interface JpResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * A temp directory standing in for a user's machine: its own HOME (which exists, as a user's does:
 * jp makes its caches in it but never a missing home) and XDG config home.
 */
export function makeSandbox(prefix = 'jp-e2e-'): { root: string; home: string; env: NodeJS.ProcessEnv } {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
  const home = path.join(root, 'home');
  mkdirSync(home);
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), NO_COLOR: '1' };
  return { root, home, env };
}

/**
 * Runs the built binary as a user would. stdin is closed unless `input` is given, so jp sees a
 * non-terminal with nothing piped; the environment is only what the sandbox gives.
 */
export function runJp(
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; input?: string; timeoutMs?: number; uid?: number; gid?: number; bin?: string },
): Promise<JpResult> {
  const bin = options.bin ?? JP_BIN;
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run \`pnpm build\` before the end-to-end tests`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: options.cwd,
      env: options.env,
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.gid ?? options.uid }),
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    if (options.input !== undefined) child.stdin!.end(options.input);
  });
}

/** Every file under a directory with the sha256 of its bytes: compare two to prove nothing changed. */
export function snapshotTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (current: string): void => {
    for (const name of readdirSync(current).sort()) {
      const full = path.join(current, name);
      const rel = path.relative(dir, full);
      if (statSync(full).isDirectory()) {
        out[`${rel}/`] = 'dir';
        walk(full);
      } else {
        out[rel] = createHash('sha256').update(readFileSync(full)).digest('hex');
      }
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

/** The lines of a conversation's events.jsonl exactly as stored, parsed: resources refer to blobs. */
export function readStoredEvents(workspace: string, id: string): Array<Record<string, any>> {
  const text = readFileSync(path.join(workspace, '.jp', 'conversations', id, 'events.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, any>);
}

/** The bytes of a blob of the workspace's blob store (`.jp/blobs/<aa>/<sha256>`). */
export function readBlob(workspace: string, sha256: string): Buffer {
  return readFileSync(path.join(workspace, '.jp', 'blobs', sha256.slice(0, 2), sha256));
}

/**
 * The events of a conversation, one parsed JSON object per line, with every blob reference
 * replaced by its content: resources in MCP's inline form (`text`, or `blob` as base64), as
 * `conversation show -F json` prints them. Tests assert on content without caring where it is kept.
 */
export function readEvents(workspace: string, id: string): Array<Record<string, any>> {
  const inline = (holder: Record<string, any>) => {
    const formatted = holder.formatted;
    if (formatted !== null && typeof formatted === 'object' && typeof formatted.$blob === 'string') {
      holder.formatted = readBlob(workspace, formatted.$blob).toString('utf8');
    }
  };
  const resolve = (resource: Record<string, any>) => {
    if (typeof resource.$blob === 'string') {
      const bytes = readBlob(workspace, resource.$blob);
      if (resource.encoding === 'text') resource.text = bytes.toString('utf8');
      else resource.blob = bytes.toString('base64');
      delete resource.$blob;
      delete resource.size;
      delete resource.encoding;
    }
    inline(resource);
  };
  return readStoredEvents(workspace, id).map((event) => {
    if (event.type === 'chat_request' && Array.isArray(event.resources)) event.resources.forEach(resolve);
    if (event.type === 'tool_call_response' && Array.isArray(event.content)) {
      for (const block of event.content) {
        if (block?.type !== 'resource') continue;
        resolve(block.resource);
        inline(block);
      }
    }
    return event;
  });
}

export function turnsOf(events: Array<Record<string, any>>): Array<Array<Record<string, any>>> {
  const turns: Array<Array<Record<string, any>>> = [];
  for (const event of events) {
    if (event.type === 'turn_start') turns.push([]);
    turns.at(-1)?.push(event);
  }
  return turns;
}

/** One line on stderr starting `jp: `, matching `pattern`, with the exit code and no stack trace. */
export function expectOneLineError(result: JpResult, code: number, pattern: RegExp): void {
  expect(result.code, result.stderr).toBe(code);
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^jp: /);
  expect(lines[0]).toMatch(pattern);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}
