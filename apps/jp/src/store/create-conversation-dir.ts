import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { JpError } from '@jp/core';
import { writeFileAtomic } from './atomic-write.ts';
import { newConversationId } from './conversation-id.ts';
import { serializeMetadata, type ConversationMetadata } from './conversation-metadata.ts';
import type { NewConversation } from './new-conversation.ts';
import { ensureJpGitFiles } from './jp-git-files.ts';
import { conversationsRoot } from './list-conversations.ts';
import { removeDeadLeftovers } from './remove-dead-leftovers.ts';
import { crashPoint, enospcPoint } from './test-hooks.ts';
import { writeFailure } from './write-fully.ts';

/**
 * Makes a conversation's directory whole or not at all: built under `.new-<id>-<pid>` and renamed
 * into place, with a fresh id (retried on a collision). Returns the id. `lines` are its stored
 * events; the blobs they refer to are already stored. The test points (test-hooks.ts) are
 * `create:files` / `fork:files` (the new directory's files) and `create:rename` / `fork:rename`.
 */
export function createConversationDir(jpDir: string, conversation: NewConversation, lines: string[], appendLines: (file: string, lines: readonly string[]) => void): string {
  const operation = conversation.forkedFrom === undefined ? 'create' : 'fork';
  const root = conversationsRoot(jpDir);
  mkdirSync(root, { recursive: true });
  ensureJpGitFiles(jpDir);
  // What a killed create, fork or remove left keeps its blobs from `jp gc`: a writer clears it too.
  removeDeadLeftovers(root);
  for (let attempt = 0; attempt < 20; attempt++) {
    const id = newConversationId();
    if (existsSync(path.join(root, id))) continue;
    const tmp = path.join(root, `.new-${id}-${process.pid}`);
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
        configVersion: conversation.configVersion,
      };
      writeFileAtomic(path.join(tmp, 'metadata.json'), serializeMetadata(metadata));
      writeFileAtomic(path.join(tmp, 'base-config.json'), `${JSON.stringify(conversation.baseConfig, null, 2)}\n`);
      const events = path.join(tmp, 'events.jsonl');
      try {
        enospcPoint(`${operation}:files`, events);
      } catch (error) {
        throw writeFailure(error, events);
      }
      appendLines(events, lines);
      if (lines.length === 0) writeFileAtomic(events, '');
      crashPoint(`${operation}:files`);
      const final = path.join(root, id);
      try {
        enospcPoint(`${operation}:rename`, final);
        renameSync(tmp, final);
      } catch (error) {
        throw writeFailure(error, final);
      }
      crashPoint(`${operation}:rename`);
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
