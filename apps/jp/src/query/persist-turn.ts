import path from 'node:path';
import { CONFIG_VERSION } from '../conversation/conversation-config.ts';
import { recordTip } from '../store/clone-tips.ts';
import { splitConversationId } from '../store/conversation-branch-id.ts';
import type { QuerySession } from './open-session.ts';
import type { TurnAnswer } from './answer-turn.ts';
import type { TurnOpening } from './open-turn.ts';

function defaultTitle(query: string): string | undefined {
  const first = query.split('\n', 1)[0]!.trim();
  if (first === '') return undefined;
  return first.length > 60 ? `${first.slice(0, 57)}...` : first;
}

/**
 * Stores the turn: a new conversation is created (and made the active one), an existing one gets
 * the turn appended in one write, its blobs stored first. Then the file cache learns what was read.
 * Returns the conversation's id.
 */
export async function persistTurn(session: QuerySession, turn: TurnOpening, answer: TurnAnswer): Promise<string> {
  const { ctx, invocation, content } = session;
  const { store, output } = ctx;
  let id = invocation.id;
  if (id === undefined) {
    id = await store.create({ baseConfig: session.baseConfig, configVersion: CONFIG_VERSION, events: answer.events, title: invocation.options.title ?? defaultTitle(invocation.query), turnCount: 1 }, content);
    store.setActive(id);
  } else {
    // --title on a conversation that has one renames it, with the turn: a `title` event right after
    // the turn's start, not a rewrite of metadata.json, which two clones renaming it would conflict on (RFD 029).
    const title = invocation.options.title;
    const [start, ...rest] = answer.events;
    const events = title === undefined ? answer.events : [start!, { type: 'title' as const, timestamp: start!.timestamp ?? new Date().toISOString(), title }, ...rest];
    await store.append(id, events, content);
  }
  // This clone's place in the conversation: its next turn follows this one, whatever a pull brings (issue W).
  const turnId = (answer.events[0] as { id?: string } | undefined)?.id;
  if (turnId !== undefined) recordTip(store.jpDir, splitConversationId(id).base, turnId);
  const { fileContents } = content;
  try {
    fileContents.save();
  } catch (error) {
    output.warn(`could not update ${path.relative(ctx.workspace.root, fileContents.file)} (${error instanceof Error ? error.message : String(error)}); the next attach reads every file again`);
  }
  return id;
}
