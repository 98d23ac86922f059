import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { CRASH_NOTICE } from '../../src/store/test-hooks.ts';
import { JP_BIN, makeSandbox, runJp, type JpResult } from './run-jp.ts';

/*
 * What the store-integrity tests share: a workspace made through the binary, processes started
 * in the background (to pause, kill or race them), and checks over the whole store.
 */

export type Event = Record<string, any>;

/** The last NDJSON line of a `-F json` command's stdout, parsed. */
export const lastJson = (stdout: string): Record<string, any> => JSON.parse(stdout.trim().split('\n').at(-1)!);

export interface Workspace {
  root: string;
  ws: string;
  env: NodeJS.ProcessEnv;
  jp(args: string[], options?: { timeoutMs?: number }): Promise<JpResult>;
}

/** A sandboxed HOME and an initialised workspace (at `at` when given, e.g. on a tmpfs). */
export async function makeWorkspace(prefix: string, at?: string): Promise<Workspace> {
  const { root, env } = makeSandbox(prefix);
  const ws = at ?? path.join(root, 'project');
  mkdirSync(ws, { recursive: true });
  const jp = (args: string[], options: { timeoutMs?: number } = {}) => runJp(args, { cwd: ws, env, timeoutMs: options.timeoutMs ?? 120_000 });
  const init = await jp(['init']);
  expect(init.code, init.stderr).toBe(0);
  return { root, ws, env, jp };
}

/** A copy of a workspace's directory at `to` (its `.jp/` and files), run with the same HOME. */
export function copyWorkspace(w: Workspace, to: string): Workspace {
  cpSync(w.ws, to, { recursive: true });
  const jp = (args: string[], options: { timeoutMs?: number } = {}) => runJp(args, { cwd: to, env: w.env, timeoutMs: options.timeoutMs ?? 120_000 });
  return { root: w.root, ws: to, env: w.env, jp };
}

/** `count` files named `<dir>/fNNN.txt`, by workspace-relative name, each with `text(i)`. */
export function treeFiles(dir: string, count: number, text: (i: number) => string): Record<string, string> {
  return Object.fromEntries(Array.from({ length: count }, (_, i) => [`${dir}/f${String(i).padStart(3, '0')}.txt`, text(i)]));
}

/**
 * Writes files (workspace-relative names), with modification times an hour old so the file cache
 * trusts their stamps once their change times are old too (see `waitForOldChangeTimes`).
 */
export function writeFiles(ws: string, files: Record<string, string>): void {
  const old = new Date(Date.now() - 3_600_000);
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(ws, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    utimesSync(file, old, old);
  }
}

/** The file cache trusts a stamp only when mtime and ctime are over 2.5 s old; ctime cannot be set, only waited for. */
export const waitForOldChangeTimes = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 2_600));

/** The `file://` URI a workspace file is attached under. */
export const fileUri = (ws: string, name: string): string => `file://${path.join(ws, name)}`;

/** A jp process running in the background. */
export interface RunningJp {
  child: ChildProcess;
  result: Promise<JpResult>;
  /** Whether it has exited. */
  exited(): boolean;
}

/** Starts the binary without waiting for it (stdin closed), collecting its output. */
export function startJp(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): RunningJp {
  const child = spawn(process.execPath, [JP_BIN, ...args], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let done = false;
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const result = new Promise<JpResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      done = true;
      resolve({ code: code ?? (signal === null ? null : -1), stdout, stderr });
    });
  });
  return { child, result, exited: () => done };
}

/**
 * Waits until `file` exists: a sign from a paused tool. Fails (instead of hanging) when the
 * process exits first or nothing happens for a minute; this is a wait, not a timed assertion.
 */
export async function waitForFile(file: string, running: RunningJp, limitMs = 60_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!existsSync(file)) {
    if (running.exited()) {
      const result = await running.result;
      throw new Error(`the process exited (${result.code}) before ${file} appeared: ${result.stderr}`);
    }
    if (Date.now() > deadline) throw new Error(`${file} did not appear within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A deterministic generator of numbers in [0, 1) (mulberry32). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** The conversation directories as they are on disk (not through jp): names not starting with a dot. */
export function conversationDirs(ws: string): string[] {
  const dir = path.join(ws, '.jp', 'conversations');
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((name) => !name.startsWith('.')).sort();
}

/** Entries of `.jp/conversations/` a create, fork or remove leaves while it runs (`.new-*`, `.rm-*`). */
export function conversationLeftovers(ws: string): string[] {
  const dir = path.join(ws, '.jp', 'conversations');
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((name) => /^\.(new|rm)-/.test(name));
}

/** Files under `dir` (relative paths) for which `test` holds. */
export function findFiles(dir: string, test: (name: string, full: string) => boolean): string[] {
  const found: string[] = [];
  const walk = (current: string): void => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (test(entry.name, full)) found.push(path.relative(dir, full));
    }
  };
  if (existsSync(dir)) walk(dir);
  return found.sort();
}

/** Temporary files (`*.tmp`) anywhere under the workspace's `.jp/`. */
export const temporaryFiles = (ws: string): string[] => findFiles(path.join(ws, '.jp'), (name) => name.endsWith('.tmp'));

/** Empty `lock` / `blobs.lock` files under `.jp/`: a lock must never be seen without its owner. */
export const emptyLocks = (ws: string): string[] =>
  findFiles(path.join(ws, '.jp'), (name, full) => (name === 'lock' || name === 'blobs.lock') && statSync(full).size === 0);

/**
 * A run a crash point (`JP_TEST_CRASH_AT`) killed: it died by a signal after naming that point on
 * stderr, which no other death (a timeout's kill, a crash elsewhere) does.
 */
export function expectKilledAt(result: JpResult, point: string): void {
  expect(result.stderr, `the run reached crash point ${point}`).toContain(`${CRASH_NOTICE}${point}\n`);
  // `runJp` gives no code for a death by a signal, `startJp` gives -1.
  expect([null, -1], result.stderr).toContain(result.code);
}

/** The conversations `jp -F json conversation ls` lists as unreadable (damaged), with their reasons. */
export async function unreadableConversations(w: Workspace): Promise<Array<{ id: string; reason: string }>> {
  const listed = await w.jp(['-F', 'json', 'conversation', 'ls']);
  expect(listed.code, listed.stderr).toBe(0);
  return JSON.parse(listed.stdout).unreadable ?? [];
}

/** The ids `jp -F json conversation ls` lists. */
export async function listedIds(w: Workspace): Promise<string[]> {
  const listed = await w.jp(['-F', 'json', 'conversation', 'ls']);
  expect(listed.code, listed.stderr).toBe(0);
  return (JSON.parse(listed.stdout).conversations as Array<{ id: string }>).map((c) => c.id).sort();
}

/** `jp -F json conversation show ID`: the command's result and, when it succeeded, its events. */
export async function showEvents(w: Workspace, id: string): Promise<{ result: JpResult; events: Event[] }> {
  const result = await w.jp(['-F', 'json', 'conversation', 'show', id]);
  return { result, events: result.code === 0 ? (JSON.parse(result.stdout).events as Event[]) : [] };
}

/**
 * Every conversation `jp conversation ls` lists loads with `jp conversation show` (exit 0, no
 * missing or damaged blob). Returns the events of each, by id.
 */
export async function expectEveryConversationLoads(w: Workspace, parallel = 4): Promise<Map<string, Event[]>> {
  const ids = await listedIds(w);
  const loaded = new Map<string, Event[]>();
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++]!;
      const { result, events } = await showEvents(w, id);
      expect(result.stderr, `conversation ${id}`).not.toMatch(/missing_blob|which is missing|is damaged/);
      expect(result.code, `conversation ${id}: ${result.stderr}`).toBe(0);
      loaded.set(id, events);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return loaded;
}

/** The resources of a turn's request, as `{ workspace-relative name: text }`. */
export function requestTexts(events: readonly Event[], turn = 0): Record<string, string> {
  const requests = events.filter((event) => event.type === 'chat_request');
  const request = requests[turn];
  expect(request, `turn ${turn} has a request`).toBeDefined();
  return Object.fromEntries((request!.resources ?? []).map((r: { name: string; text: string }) => [r.name, r.text]));
}

/** With `-F json`: one line on stderr, the JSON error object, with this exit code, code and message. */
export function expectOneLineJsonError(result: JpResult, exitCode: number, code: string, message: RegExp): void {
  expect(result.code, result.stderr).toBe(exitCode);
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  const { error } = JSON.parse(lines[0]!) as { error: { code: string; exitCode: number; message: string } };
  expect(error).toMatchObject({ code, exitCode });
  expect(error.message).toMatch(message);
}
