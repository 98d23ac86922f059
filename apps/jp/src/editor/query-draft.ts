import { readFileSync, rmSync } from 'node:fs';
import { localDir } from '../workspace/local-state.ts';
import path from 'node:path';
import { writeFileAtomic } from '../store/atomic-write.ts';
import { queryFromTemplate } from './query-template.ts';

/** Drafts are one person's unsent text: machine-local state, never shared (`.jp/local/`). */
export function draftsDir(jpDir: string): string {
  return path.join(jpDir, 'local', 'drafts');
}

/**
 * The query being written for one conversation, kept on disk from the moment the editor opens
 * until its turn is stored: an editor that fails, an empty query, a provider error or Ctrl-C never
 * loses it. A new conversation (`-n`, or none active) has one slot of its own, `new`.
 */
export class QueryDraft {
  readonly file: string;

  constructor(
    private readonly jpDir: string,
    conversationId: string | undefined,
  ) {
    this.file = path.join(draftsDir(jpDir), `${conversationId ?? 'new'}.md`);
  }

  /** The kept query (what is above the scissors, should the editor have been killed), if any. */
  read(): string | undefined {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    const query = queryFromTemplate(text);
    return query === '' ? undefined : query;
  }

  /** Replaces the draft's file whole: readers see the old text or the new. Owner-only, like git's. */
  write(text: string): void {
    localDir(this.jpDir, 'drafts');
    writeFileAtomic(this.file, text, { mode: 0o600 });
  }

  /** Its turn is stored: the draft is done with. */
  remove(): void {
    rmSync(this.file, { force: true });
  }
}
