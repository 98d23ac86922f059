import { existsSync, statSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { conversationIds } from '../store/list-conversations.ts';

export interface WatchHandlers {
  /** Conversations were created or removed. */
  listChanged(): void;
  /** A followed conversation changed (a new turn, a new title). */
  updated(id: string): void;
}

export interface WatchOptions {
  /** Poll instead of watching (a file system without change events, e.g. over the network). */
  poll?: boolean;
  pollMs?: number;
  /** How long events settle before the files are looked at: one turn's appends make one notice. */
  debounceMs?: number;
}

/** What changes when a turn is stored: events.jsonl grows, metadata.json is replaced. */
function signature(dir: string): string {
  const events = statSync(path.join(dir, 'events.jsonl'), { throwIfNoEntry: false });
  const metadata = statSync(path.join(dir, 'metadata.json'), { throwIfNoEntry: false });
  return `${events?.size}:${events?.mtimeMs}|${metadata?.mtimeMs}:${metadata?.ino}`;
}

/**
 * Notices new and removed conversations, and changes to the ones followed (subscribed). It watches
 * with `fs.watch` — the conversations directory for creations and removals, and each followed
 * conversation's directory — and falls back to polling every `pollMs` when watching is not
 * possible (no conversations directory yet, no inotify watches left) or when asked. Either way a
 * change is confirmed by comparing sizes and times, so a spurious event sends nothing.
 */
export class ConversationWatcher {
  mode: 'watch' | 'poll';
  readonly #root: string;
  readonly #handlers: WatchHandlers;
  readonly #debounceMs: number;
  readonly #pollMs: number;
  #ids: string;
  readonly #followed = new Map<string, { signature: string; watcher?: FSWatcher | undefined }>();
  #rootWatcher: FSWatcher | undefined;
  #poller: NodeJS.Timeout | undefined;
  readonly #pending = new Map<string, NodeJS.Timeout>();
  #closed = false;

  constructor(root: string, handlers: WatchHandlers, options: WatchOptions = {}) {
    this.#root = root;
    this.#handlers = handlers;
    this.#debounceMs = options.debounceMs ?? 50;
    this.#pollMs = options.pollMs ?? 1000;
    this.#ids = this.#listSignature();
    this.mode = 'poll';
    if (options.poll !== true && existsSync(root)) {
      try {
        this.#rootWatcher = watch(root, () => this.#schedule('', () => this.#checkList()));
        this.#rootWatcher.on('error', () => this.#fallBackToPolling());
        this.mode = 'watch';
      } catch {
        this.#rootWatcher = undefined;
      }
    }
    if (this.mode === 'poll') this.#startPolling();
  }

  #listSignature(): string {
    return conversationIds(this.#root).join('\n');
  }

  #schedule(key: string, check: () => void): void {
    if (this.#closed) return;
    clearTimeout(this.#pending.get(key));
    this.#pending.set(
      key,
      setTimeout(() => {
        this.#pending.delete(key);
        if (!this.#closed) check();
      }, this.#debounceMs),
    );
  }

  #checkList(): void {
    const ids = this.#listSignature();
    if (ids === this.#ids) return;
    this.#ids = ids;
    this.#handlers.listChanged();
  }

  #checkConversation(id: string): void {
    const followed = this.#followed.get(id);
    if (followed === undefined) return;
    const now = signature(path.join(this.#root, id));
    if (now === followed.signature) return;
    followed.signature = now;
    this.#handlers.updated(id);
  }

  #watchConversation(id: string): FSWatcher | undefined {
    if (this.mode !== 'watch') return undefined;
    try {
      const watcher = watch(path.join(this.#root, id), () => this.#schedule(id, () => this.#checkConversation(id)));
      watcher.on('error', () => this.#fallBackToPolling());
      return watcher;
    } catch {
      // Gone already, or no watches left: polling sees it either way.
      this.#fallBackToPolling();
      return undefined;
    }
  }

  #startPolling(): void {
    if (this.#poller !== undefined || this.#closed) return;
    this.#poller = setInterval(() => {
      this.#checkList();
      for (const id of [...this.#followed.keys()]) this.#checkConversation(id);
    }, this.#pollMs);
    this.#poller.unref();
  }

  #fallBackToPolling(): void {
    if (this.mode === 'poll') return;
    this.mode = 'poll';
    this.#rootWatcher?.close();
    for (const followed of this.#followed.values()) followed.watcher?.close();
    this.#startPolling();
  }

  /** Starts telling `updated` about this conversation. */
  follow(id: string): void {
    if (this.#followed.has(id) || this.#closed) return;
    const followed: { signature: string; watcher?: FSWatcher | undefined } = { signature: signature(path.join(this.#root, id)) };
    this.#followed.set(id, followed);
    followed.watcher = this.#watchConversation(id);
  }

  unfollow(id: string): void {
    this.#followed.get(id)?.watcher?.close();
    this.#followed.delete(id);
  }

  close(): void {
    this.#closed = true;
    this.#rootWatcher?.close();
    for (const followed of this.#followed.values()) followed.watcher?.close();
    this.#followed.clear();
    clearInterval(this.#poller);
    for (const timer of this.#pending.values()) clearTimeout(timer);
    this.#pending.clear();
  }
}
