import { existsSync, mkdirSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { deadPid } from './__fixtures__/dead-pid.ts';
import { removeDeadLeftovers, removeDeadTemporaries } from './remove-dead-leftovers.ts';

/** A directory in `root` with an events file in it, as a create, fork or remove leaves it. */
function leftover(root: string, name: string): string {
  const dir = path.join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'events.jsonl'), '{"type":"turn_start"}\n');
  return dir;
}

describe('removeDeadLeftovers', () => {
  it('removes the .new- and .rm- directories of processes that are gone, and only those', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'jp-leftovers-'));
    const dead = await deadPid();
    const id = '0mhz3k1ab-x7k2q';
    leftover(root, `.new-${id}-${dead}`);
    leftover(root, `.rm-${id}-${dead}`);
    leftover(root, '.new-garbage'); // no process id: nobody can be writing it
    leftover(root, `.new-${id}-0`);
    const running = [`.new-${id}-${process.pid}`, `.rm-${id}-${process.pid}`];
    for (const name of running) leftover(root, name);
    const others = [id, '.DS_Store', `.renamed-${id}-${dead}`];
    for (const name of others) leftover(root, name);
    expect(removeDeadLeftovers(root)).toBe(4);
    expect(readdirSync(root).sort()).toEqual([...running, ...others].sort());
  });

  it('removes one older than a day whatever its process id says (ids are reused)', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'jp-leftovers-'));
    const old = leftover(root, `.new-0mhz3k1ab-x7k2q-${process.pid}`);
    const then = new Date(Date.now() - 25 * 60 * 60 * 1000);
    utimesSync(old, then, then);
    expect(removeDeadLeftovers(root)).toBe(1);
    expect(existsSync(old)).toBe(false);
  });

  it('does nothing where there are no conversations yet', () => {
    expect(removeDeadLeftovers(path.join(tmpdir(), 'jp-no-such-dir', 'conversations'))).toBe(0);
  });
});

describe('removeDeadTemporaries', () => {
  it('removes the temporary files of writes whose process is gone or that are a day old, and nothing else', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'jp-temporaries-'));
    const dead = await deadPid();
    const gone = [`.metadata.json.${dead}.0a1b2c3d.tmp`, `.lock.${dead}.ffff0000.tmp`];
    const old = `.active.${process.pid}.12345678.tmp`;
    const kept = [`.metadata.json.${process.pid}.0a1b2c3d.tmp`, 'metadata.json', 'events.jsonl', 'lock', `.spool.tmp`, `.x.${dead}.nothex.tmp`];
    for (const name of [...gone, old, ...kept]) writeFileSync(path.join(dir, name), 'x');
    const then = new Date(Date.now() - 25 * 60 * 60 * 1000);
    utimesSync(path.join(dir, old), then, then);
    expect(removeDeadTemporaries(dir)).toBe(3);
    expect(readdirSync(dir).sort()).toEqual([...kept].sort());
    expect(removeDeadTemporaries(path.join(dir, 'missing'))).toBe(0);
  });
});
