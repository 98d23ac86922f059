import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { JpError, UsageError } from '@jp/core/errors';
import type { ConversationEvent } from '@jp/core';
import { writeFileAtomic } from './atomic-write.ts';
import { acquireLock, type ReleaseLock } from './conversation-lock.ts';
import { newConversationId } from './conversation-id.ts';
import { readMetadata, serializeMetadata, type ConversationMetadata } from './conversation-metadata.ts';
import type { LoadedEvents } from './events-file.ts';

export interface NewConversation {
  baseConfig: Record<string, unknown>;
  events: readonly ConversationEvent[];
  title?: string | undefined;
  turnCount: number;
  forkedFrom?: ConversationMetadata['forkedFrom'];
}

/**
 * The conversations of one workspace, under `.jp/conversations/<id>/`: `metadata.json`,
 * `base-config.json` and the append-only `events.jsonl`. Creation is atomic (the directory is
 * built under a temporary name and renamed into place), appends happen under the conversation's
 * lock, and metadata is replaced atomically.
 */
export class ConversationStore {
  readonly root: string;

  constructor(readonly jpDir: string) {
    this.root = path.join(jpDir, 'conversations');
  }

  dir(id: string): string {
    return path.join(this.root, id);
  }

  private file(id: string, name: string): string {
    return path.join(this.dir(id), name);
  }

  /** Display path of a conversation file, relative to the workspace (for messages). */
  displayPath(id: string, name: string): string {
    return path.join('.jp', 'conversations', id, name);
  }

  ids(): string[] {
    let entries: string[];
    try {
      entries = readdirSync(this.root);
    } catch {
      return [];
    }
    return entries.filter((name) => !name.startsWith('.') && existsSync(this.file(name, 'metadata.json'))).sort();
  }

  exists(id: string): boolean {
    return !id.startsWith('.') && !id.includes('/') && existsSync(this.file(id, 'metadata.json'));
  }

  /** An id as typed: exact, or an unambiguous prefix. */
  resolveId(input: string): string {
    if (this.exists(input)) return input;
    const matches = input === '' ? [] : this.ids().filter((id) => id.startsWith(input));
    if (matches.length === 1) return matches[0]!;
    if (matches.length > 1) {
      throw new UsageError(`conversation id ${input} is ambiguous (${matches.length} match); type more of it`, { code: 'ambiguous_conversation' });
    }
    throw new UsageError(`no conversation ${input} in this workspace; \`jp conversation ls\` lists them`, { code: 'unknown_conversation' });
  }

  list(): ConversationMetadata[] {
    const all: ConversationMetadata[] = [];
    for (const id of this.ids()) {
      const metadata = readMetadata(id, this.file(id, 'metadata.json'));
      if (metadata) all.push(metadata);
    }
    return all.sort((a, b) => (a.lastActivityAt < b.lastActivityAt ? 1 : a.lastActivityAt > b.lastActivityAt ? -1 : a.id < b.id ? 1 : -1));
  }

  metadata(id: string): ConversationMetadata {
    const metadata = readMetadata(id, this.file(id, 'metadata.json'));
    if (!metadata) throw new JpError(`${this.displayPath(id, 'metadata.json')} is missing or damaged`, { code: 'damaged_conversation' });
    return metadata;
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

  // The events module (and with it the schemas) is loaded only by commands that read events, so
  // `jp conversation ls` stays as cheap as reading the metadata files.
  async events(id: string): Promise<LoadedEvents> {
    const { readEventsFile } = await import('./events-file.ts');
    return readEventsFile(this.file(id, 'events.jsonl'), this.displayPath(id, 'events.jsonl'));
  }

  /** Appends events; the caller holds the lock. */
  async append(id: string, events: readonly ConversationEvent[]): Promise<void> {
    const { appendEvents } = await import('./events-file.ts');
    appendEvents(this.file(id, 'events.jsonl'), events);
  }

  lock(id: string, timeoutMs: number): Promise<ReleaseLock> {
    return acquireLock(this.file(id, 'lock'), { timeoutMs, what: `conversation ${id}` });
  }

  /** Creates a conversation atomically and returns its id. */
  async create(conversation: NewConversation): Promise<string> {
    const { appendEvents } = await import('./events-file.ts');
    mkdirSync(this.root, { recursive: true });
    for (let attempt = 0; attempt < 20; attempt++) {
      const id = newConversationId();
      if (existsSync(this.dir(id))) continue;
      const tmp = path.join(this.root, `.new-${id}-${process.pid}`);
      mkdirSync(tmp);
      try {
        const now = new Date().toISOString();
        const metadata: ConversationMetadata = {
          id,
          title: conversation.title,
          createdAt: now,
          lastActivityAt: now,
          turnCount: conversation.turnCount,
          forkedFrom: conversation.forkedFrom,
        };
        writeFileAtomic(path.join(tmp, 'metadata.json'), serializeMetadata(metadata));
        writeFileAtomic(path.join(tmp, 'base-config.json'), `${JSON.stringify(conversation.baseConfig, null, 2)}\n`);
        appendEvents(path.join(tmp, 'events.jsonl'), conversation.events);
        if (conversation.events.length === 0) writeFileAtomic(path.join(tmp, 'events.jsonl'), '');
        renameSync(tmp, this.dir(id));
        return id;
      } catch (error) {
        rmSync(tmp, { recursive: true, force: true });
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOTEMPTY' || code === 'EEXIST') continue;
        throw error;
      }
    }
    throw new JpError('could not allocate a unique conversation id after 20 attempts', { code: 'id_collision' });
  }

  remove(id: string): void {
    // Rename first so a concurrent reader never sees a half-deleted conversation.
    const doomed = path.join(this.root, `.rm-${id}-${process.pid}`);
    renameSync(this.dir(id), doomed);
    rmSync(doomed, { recursive: true, force: true });
  }

  activeId(): string | undefined {
    try {
      const id = readFileSync(path.join(this.jpDir, 'active'), 'utf8').trim();
      return id !== '' && this.exists(id) ? id : undefined;
    } catch {
      return undefined;
    }
  }

  setActive(id: string): void {
    writeFileAtomic(path.join(this.jpDir, 'active'), `${id}\n`);
  }
}
