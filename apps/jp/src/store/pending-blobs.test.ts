import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pendingBlobs, recordPendingBlobs } from './pending-blobs.ts';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function jpDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'jp-pending-'));
  dirs.push(dir);
  return dir;
}

/** The id of a process that has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

describe('pending blobs', () => {
  it('lists what a living process recorded until it removes its list', () => {
    const jp = jpDir();
    const remove = recordPendingBlobs(jp, [A, B]);
    expect(pendingBlobs(jp)).toEqual(new Set([A, B]));
    remove();
    expect(pendingBlobs(jp)).toEqual(new Set());
  });

  it("drops the list of a process that is gone, and ignores what is not a list's name or a sha256", () => {
    const jp = jpDir();
    const dir = path.join(jp, 'local', 'pending');
    mkdirSync(dir, { recursive: true });
    const dead = path.join(dir, `${deadPid()}-00ff`);
    writeFileSync(dead, `${A}\n`);
    writeFileSync(path.join(dir, 'notes.txt'), `${A}\n`);
    writeFileSync(path.join(dir, `${process.pid}-01`), `${B}\nnot a digest\n`);
    expect(pendingBlobs(jp)).toEqual(new Set([B]));
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(path.join(dir, 'notes.txt'))).toBe(true);
  });

  it('has nothing pending in a workspace that never recorded any', () => {
    expect(pendingBlobs(jpDir())).toEqual(new Set());
  });
});
