import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { JpError, UsageError } from '@jp/core';
import type { ConversationEvent } from '@jp/core';
import { writeFileAtomic } from './atomic-write.ts';
import { BlobStore, type BlobContent } from './blob-store.ts';
import { acquireLock, type LockOptions, type ReleaseLock } from './conversation-lock.ts';
import { readMetadata, serializeMetadata, type ConversationMetadata } from './conversation-metadata.ts';
import { conversationIds, conversationsRoot, listConversations, unreadableConversations, unreadableReason, type UnreadableConversation } from './list-conversations.ts';
import type { SharedBlob } from './copy-stored-lines.ts';
import type { LoadedEvents } from './events-file.ts';
import type { ScannedEvents } from './scan-events-file.ts';
import type { Payloads } from './stored-resource.ts';
import { FileContents } from './file-content-cache.ts';
import { TurnContent } from './turn-content.ts';
import { clearActiveId, readActiveId, writeActiveId } from './active-conversation.ts';
import { branchRemovedAt, conversationActivity, removedAt, withActivity } from './conversation-activity.ts';
import { branchMetadata, splitConversationId } from './conversation-branch-id.ts';
import { createConversationDir } from './create-conversation-dir.ts';
import { deleteConversationDir } from './delete-conversation-dir.ts';
import type { NewConversation } from './new-conversation.ts';

/**
 * The conversations of one workspace, under `.jp/conversations/<id>/`: `metadata.json`,
 * `base-config.json` and the append-only `events.jsonl`, whose resource payloads live in the
 * workspace's blob store (`.jp/blobs/`, RFD 008). Creation is atomic (the directory is built under
 * a temporary name and renamed into place), appends happen under the conversation's lock, and
 * metadata is replaced atomically. Blobs are stored, durably, before any line refers to them,
 * under the blob lock that `jp gc` takes to collect them.
 */
export class ConversationStore {
  readonly root: string;
  readonly blobs: BlobStore;
  /** How long a writer waits for `jp gc` to release the blob store. */
  blobLockTimeoutMs = 30_000;

  /** `blobs`: the workspace's blob store when the command has one already (a read-ahead's, RFD 002). */
  constructor(
    readonly jpDir: string,
    blobs?: BlobStore,
  ) {
    this.root = conversationsRoot(jpDir);
    this.blobs = blobs ?? new BlobStore(jpDir);
  }

  /** A conversation's directory; a branch's (`<id>~<key>`) is its conversation's. */
  dir(id: string): string {
    return path.join(this.root, splitConversationId(id).base);
  }

  private file(id: string, name: string): string {
    return path.join(this.dir(id), name);
  }

  /** Display path of a conversation file, relative to the workspace (for messages). */
  displayPath(id: string, name: string): string {
    return path.join('.jp', 'conversations', splitConversationId(id).base, name);
  }

  ids(): string[] {
    return conversationIds(this.root);
  }

  exists(id: string): boolean {
    const { base, branch } = splitConversationId(id);
    if (base.startsWith('.') || base.includes('/') || !existsSync(this.file(base, 'metadata.json'))) return false;
    return branch === undefined || this.branchOf(id) !== undefined;
  }

  /** A branch's facts (RFD 029), when `id` names one that is there. */
  private branchOf(id: string) {
    const { base, branch } = splitConversationId(id);
    return branch === undefined ? undefined : conversationActivity(this.jpDir, base)?.branches?.find((line) => line.key === branch);
  }

  /** An id as typed: exact, or an unambiguous prefix (of the conversation, for a branch). */
  resolveId(input: string): string {
    if (this.exists(input)) return input;
    const { base, branch } = splitConversationId(input);
    if (branch !== undefined) {
      const id = `${this.resolveId(base)}~${branch}`;
      if (this.exists(id)) return id;
      throw new UsageError(`conversation ${base} has no branch ${branch}; \`jp conversation ls\` lists the branches`, { code: 'unknown_conversation' });
    }
    const matches = input === '' ? [] : this.ids().filter((id) => id.startsWith(input));
    if (matches.length === 1) return matches[0]!;
    if (matches.length > 1) {
      throw new UsageError(`conversation id ${input} is ambiguous (${matches.length} match); type more of it`, { code: 'ambiguous_conversation' });
    }
    throw new UsageError(`no conversation ${input} in this workspace; \`jp conversation ls\` lists them`, { code: 'unknown_conversation' });
  }

  /** Every readable conversation's metadata, most recently active first. */
  list(options: { save?: boolean } = {}): ConversationMetadata[] {
    return listConversations(this.root, options);
  }

  /** Conversations whose metadata does not load, each with a one-line reason. */
  unreadable(): UnreadableConversation[] {
    return unreadableConversations(this.root);
  }

  metadata(id: string): ConversationMetadata {
    const line = this.branchOf(id);
    if (line !== undefined) {
      const { base } = splitConversationId(id);
      const removed = branchRemovedAt(conversationActivity(this.jpDir, base)!, line.key);
      if (removed !== undefined) {
        throw new JpError(`${id} was removed (jp conversation rm, ${removed}); ${base} and its other lines stay`, { code: 'removed_conversation' });
      }
      return branchMetadata(this.metadata(base), line);
    }
    const read = readMetadata(id, this.file(id, 'metadata.json'));
    const removal = removedAt(this.jpDir, id);
    if (removal !== undefined) {
      throw new JpError(`conversation ${id} was removed (jp conversation rm, ${removal}); its files stay for git's history`, { code: 'removed_conversation' });
    }
    const metadata = read && withActivity(this.jpDir, read);
    if (!metadata) {
      const file = this.displayPath(id, 'metadata.json');
      const why = unreadableReason(this.dir(id));
      const message = why.includes('conflict markers')
        ? `${file} holds git conflict markers; resolve them by hand, keeping one side`
        : `${file} is missing or damaged (it must be a JSON object with a "createdAt" time); repair it, e.g. write {"createdAt": "2026-01-01T00:00:00Z"} into it`;
      throw new JpError(message, { code: 'damaged_conversation' });
    }
    return metadata;
  }

  /** The metadata when it can be read, `undefined` when it is missing or damaged (for a command that stores nothing). */
  readableMetadata(id: string): ConversationMetadata | undefined {
    const line = this.branchOf(id);
    if (line !== undefined) {
      const base = this.readableMetadata(splitConversationId(id).base);
      return base && branchMetadata(base, line);
    }
    const read = readMetadata(id, this.file(id, 'metadata.json'));
    return read && withActivity(this.jpDir, read);
  }

  writeMetadata(metadata: ConversationMetadata): void {
    writeFileAtomic(this.file(metadata.id, 'metadata.json'), serializeMetadata(metadata));
  }

  baseConfig(id: string): Record<string, unknown> {
    const file = this.file(id, 'base-config.json');
    try {
      const json: unknown = JSON.parse(readFileSync(file, 'utf8'));
      if (typeof json === 'object' && json !== null && !Array.isArray(json)) return json as Record<string, unknown>;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    }
    throw new JpError(`${this.displayPath(id, 'base-config.json')} is damaged (not a JSON object)`, { code: 'damaged_conversation' });
  }

  // The events modules (and with them the schemas) are loaded only by commands that read events,
  // so `jp conversation ls` stays as cheap as reading the metadata files.
  /** Content for a command that stores or reads resources without a read-ahead: this store's blobs and file cache. */
  openContent(): TurnContent {
    return new TurnContent(this.blobs, this.blobs.createSpool(), new FileContents(this.jpDir, this.blobs));
  }

  /**
   * Every event; resources refer to their content (`ref`). Every blob referred to is read and
   * verified through `content`, which keeps the bytes for the stages that read them.
   */
  async events(id: string, content: TurnContent): Promise<LoadedEvents> {
    const { readEventsFile } = await import('./events-file.ts');
    return readEventsFile(this.file(id, 'events.jsonl'), { displayName: this.displayPath(id, 'events.jsonl'), content, conversation: id, branch: splitConversationId(id).branch });
  }

  /**
   * Every event, resources referring to their content (`ref`), without reading a blob: for a
   * reader that reads only what it shows (`jp conversation show --html`). `formatted` texts, stored
   * as blobs, are left out.
   */
  async eventsWithoutContent(id: string): Promise<LoadedEvents> {
    const { readEventsFile } = await import('./events-file.ts');
    return readEventsFile(this.file(id, 'events.jsonl'), { displayName: this.displayPath(id, 'events.jsonl'), conversation: id, branch: splitConversationId(id).branch });
  }

  /** The configuration events and a summary of every resource snapshot, without reading a blob. */
  async scan(id: string): Promise<ScannedEvents> {
    const { scanEventsFile } = await import('./scan-events-file.ts');
    return scanEventsFile(this.file(id, 'events.jsonl'), this.displayPath(id, 'events.jsonl'), splitConversationId(id).branch);
  }

  /**
   * Starts loading the modules that store a turn (`create`, `append`), for a command that will
   * store one once its turn has run: they load while it does other work (a tree's files are read),
   * instead of after the turn, when nothing else is left to do; so is what making a stored line
   * needs (`prepareStoredLines`).
   */
  preloadWriting(): void {
    import('./append-lines.ts').catch(() => undefined);
    import('./stored-resource.ts').catch(() => undefined);
  }

  /**
   * Appends events, their content stored from `content`; the caller holds the conversation's lock.
   * The metadata is read first: a damaged file fails the append before a blob or a line is
   * written. metadata.json is written once, with the conversation: turn count and activity are
   * derived from the events, a new title and a removal are events, so two clones going on with one
   * conversation only ever append to the same file (RFD 029).
   */
  async append(id: string, events: readonly ConversationEvent[], content: TurnContent): Promise<void> {
    this.metadata(id);
    const { appendLines } = await import('./append-lines.ts');
    const { storedLine } = await import('./stored-resource.ts');
    const payloads: Payloads = new Map();
    const lines = events.map((event) => storedLine(event, payloads, content));
    await this.withBlobs(payloads, new Map(), () => appendLines(this.file(id, 'events.jsonl'), lines, 'events-append'));
  }

  /** `onWait`: told once when the wait passes a second (`lockWaitNotice`). */
  lock(id: string, timeoutMs: number, onWait?: LockOptions['onWait']): Promise<ReleaseLock> {
    return acquireLock(this.file(id, 'lock'), { timeoutMs, what: `conversation ${id}`, onWait });
  }

  /**
   * The workspace's blob lock: writers hold it from storing their blobs until the lines referring
   * to them are written; `jp gc` holds it while it decides what is unreferenced and deletes it.
   */
  lockBlobs(timeoutMs: number = this.blobLockTimeoutMs): Promise<ReleaseLock> {
    mkdirSync(this.jpDir, { recursive: true });
    return acquireLock(path.join(this.jpDir, 'blobs.lock'), { timeoutMs, what: 'the blob store of this workspace (`jp gc` may be running)' });
  }

  /**
   * Stores `payloads` durably, checks that the `shared` blobs (already stored, referred to by
   * copied lines) are there, then runs `write` — all under the blob lock when any blob is
   * involved, so `jp gc` can never delete a blob between the moment it is found present and the
   * moment a line refers to it.
   */
  async withBlobs<T>(payloads: ReadonlyMap<string, BlobContent>, shared: ReadonlyMap<string, SharedBlob>, write: () => T): Promise<T> {
    if (payloads.size === 0 && shared.size === 0) return write();
    const release = await this.lockBlobs();
    try {
      await this.blobs.putAll(payloads);
      for (const [sha256, blob] of shared) {
        if (!this.blobs.has(sha256, blob.size)) {
          throw new JpError(`${blob.where} refers to blob ${this.blobs.displayPath(sha256)}, which is missing; fork before that turn, or restore the blob`, {
            code: 'missing_blob',
          });
        }
      }
      return write();
    } finally {
      release();
    }
  }

  /** Creates a conversation atomically, its content stored from `content`, and returns its id. */
  async create(conversation: NewConversation, content: TurnContent): Promise<string> {
    const { appendLines } = await import('./append-lines.ts');
    const { storedLine } = await import('./stored-resource.ts');
    const payloads: Payloads = new Map();
    let lines: string[] = [];
    let shared = new Map<string, SharedBlob>();
    if (conversation.copy !== undefined) {
      const { copyStoredLines } = await import('./copy-stored-lines.ts');
      const { from, untilTurn } = conversation.copy;
      const copied = copyStoredLines(this.file(from, 'events.jsonl'), this.displayPath(from, 'events.jsonl'), from, untilTurn, payloads, splitConversationId(from).branch);
      lines = copied.lines;
      shared = copied.shared;
    }
    lines.push(...conversation.events.map((event) => storedLine(event, payloads, content)));
    return this.withBlobs(payloads, shared, () => createConversationDir(this.jpDir, conversation, lines, appendLines));
  }

  remove(id: string): void {
    if (splitConversationId(id).branch !== undefined) {
      throw new UsageError(`${id} is a branch of ${splitConversationId(id).base}: it goes with that conversation; fork it to keep it apart (jp conversation fork ${id})`, { code: 'usage_error' });
    }
    deleteConversationDir(this.root, id);
  }

  activeId(): string | undefined {
    const id = readActiveId(this.jpDir);
    return id !== undefined && this.exists(id) && !this.isRemoved(id) ? id : undefined;
  }

  /** Whether a removal holds for a conversation, or for a branch (`ID~KEY`) its own. */
  isRemoved(id: string): boolean {
    const { base, branch } = splitConversationId(id);
    if (branch === undefined) return removedAt(this.jpDir, id) !== undefined;
    const activity = conversationActivity(this.jpDir, base);
    return activity !== undefined && branchRemovedAt(activity, branch) !== undefined;
  }

  setActive(id: string): void {
    writeActiveId(this.jpDir, id);
  }

  /** No conversation is active any more (the active one was removed). */
  clearActive(): void {
    clearActiveId(this.jpDir);
  }
}
