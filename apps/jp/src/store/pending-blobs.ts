import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SHA256_PATTERN } from './blob-sha256.ts';
import { LOCAL_DIR } from './jp-git-files.ts';
import { processIsAlive } from './process-is-alive.ts';
import { writeFailure } from './write-fully.ts';

/*
 * A turn stores its blobs before the model is called (RFD 029, "Blobs before the model"), so a
 * full disk fails before anything is sent. Until the turn's line refers to them, no conversation
 * does: the turn lists them in `.jp/local/pending/<pid>-<hex>`, written under the blob lock, and
 * `jp gc` keeps what a living process lists. A list whose process is gone is removed by gc; its
 * blobs are then orphans like any failed turn's.
 */

const NAME = /^(\d+)-[0-9a-f]+$/;

function pendingDir(jpDir: string): string {
  return path.join(jpDir, LOCAL_DIR, 'pending');
}

/** Lists `sha256s` as pending for this process; returns the function that removes the list. */
export function recordPendingBlobs(jpDir: string, sha256s: Iterable<string>): () => void {
  const dir = pendingDir(jpDir);
  const file = path.join(dir, `${process.pid}-${randomBytes(6).toString('hex')}`);
  try {
    mkdirSync(dir, { recursive: true });
    // Not flushed: a list matters only while its process lives.
    writeFileSync(file, `${[...sha256s].join('\n')}\n`, { flag: 'wx' });
  } catch (error) {
    rmSync(file, { force: true });
    throw writeFailure(error, file);
  }
  return () => rmSync(file, { force: true });
}

/** The blobs living processes list as pending; the lists of dead ones are removed. The caller holds the blob lock. */
export function pendingBlobs(jpDir: string): Set<string> {
  const dir = pendingDir(jpDir);
  const pending = new Set<string>();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return pending;
  }
  for (const name of names) {
    const pid = Number(NAME.exec(name)?.[1]);
    if (!Number.isSafeInteger(pid) || pid <= 0) continue;
    const file = path.join(dir, name);
    if (!processIsAlive(pid)) {
      rmSync(file, { force: true });
      continue;
    }
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) if (SHA256_PATTERN.test(line)) pending.add(line);
  }
  return pending;
}
