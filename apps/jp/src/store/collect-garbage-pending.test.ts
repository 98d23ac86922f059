import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { ConversationEvent, Resource } from '@jp/core';
import { appendLines } from './append-lines.ts';
import { resourceSha256 } from './blob-sha256.ts';
import { collectGarbage } from './collect-garbage.ts';
import { ConversationStore } from './conversation-store.ts';
import { storeBlobsEarly } from './store-blobs-early.ts';
import { storedLine } from './stored-resource.ts';

/** Runs once, just before gc reads the pending lists: where a turn may finish, as far as gc can tell. */
const beforePendingRead = vi.hoisted(() => ({ run: undefined as (() => void) | undefined }));
vi.mock('./pending-blobs.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('./pending-blobs.ts')>();
  return {
    ...original,
    pendingBlobs: (jpDir: string) => {
      const run = beforePendingRead.run;
      beforePendingRead.run = undefined;
      run?.();
      return original.pendingBlobs(jpDir);
    },
  };
});

const timestamp = '2026-01-01T00:00:00.000Z';
const attached: Resource = { uri: 'file:///w/f010.txt', text: 'stored before the model was called' };

describe('jp gc and a turn that stored its blobs early (RFD 029)', () => {
  it('keeps them when the turn writes its line and drops its pending list while gc runs', async () => {
    const s = new ConversationStore(path.join(mkdtempSync(path.join(tmpdir(), 'jp-gc-pending-')), '.jp'));
    const id = await s.create({ baseConfig: {}, events: [], turnCount: 0 }, s.openContent());
    const events: ConversationEvent[] = [
      { type: 'turn_start', timestamp },
      { type: 'chat_request', timestamp, content: 'q', resources: [attached] },
    ];
    const content = s.openContent();
    // As `jp query` does: the attachments' blobs stored and listed as pending before the model call.
    const release = await storeBlobsEarly(s, events, content);
    const blob = s.blobs.path(resourceSha256(attached));
    expect(existsSync(blob)).toBe(true);
    // The turn ends while gc holds the blob lock: its line is written (without the lock: its blobs
    // are stored), then its pending list is removed.
    beforePendingRead.run = () => {
      const payloads = new Map();
      appendLines(path.join(s.dir(id), 'events.jsonl'), events.map((event) => storedLine(event, payloads, content)));
      expect(payloads.size).toBe(0);
      release();
    };
    expect(await collectGarbage(s)).toEqual({ removed: 0, bytes: 0, tracked: 0 });
    expect(beforePendingRead.run).toBeUndefined();
    expect(existsSync(blob)).toBe(true);
    expect((await s.events(id, content)).events).toHaveLength(2);
  });
});
