import type { ChatRequestEvent, ConversationEvent, FreshnessNotice, Resource, ToolCallResponseEvent } from '@jp/core';
import { displayName, isWatchable, type WatchedDeclaration } from './freshness-notices.ts';

/** Every URI the stream holds a snapshot of, with the turn of its first; and the files it was already told were new. */
function streamFacts(history: readonly ConversationEvent[]): { first: Map<string, number>; told: Set<string> } {
  const first = new Map<string, number>();
  const told = new Set<string>();
  let turn = -1;
  const saw = (resource: Resource) => {
    if (!first.has(resource.uri)) first.set(resource.uri, Math.max(turn, 0));
  };
  for (const event of history) {
    if (event.type === 'turn_start') turn++;
    else if (event.type === 'chat_request') {
      const request = event as ChatRequestEvent;
      for (const notice of request.notices ?? []) if (notice.status === 'new') told.add(notice.uri);
      request.resources.forEach(saw);
    } else if (event.type === 'tool_call_response') {
      for (const block of (event as ToolCallResponseEvent).content) if (block.type === 'resource') saw(block.resource);
    }
  }
  return { first, told };
}

/**
 * The notices of files that appeared under a declared directory or glob after it was read: a file
 * the declaration covers now (`listed`, by the directory attach's own rules) of which the stream
 * holds no snapshot, is not attached this turn, and was not told of before — once per file, by
 * the first declaration covering it. Only `notify` declarations of files count, and only once the
 * declaration was read (it has a snapshot: the turn named is the first).
 */
export function decideNewFileNotices(input: {
  history: readonly ConversationEvent[];
  declarations: readonly WatchedDeclaration[];
  /** What each declaration covers now (`listDeclaredFiles`); undefined for one that is not a directory or glob. */
  listed: ReadonlyMap<string, readonly string[] | undefined>;
  covers: (declaration: string, uri: string) => boolean;
  attachedNow: ReadonlySet<string>;
  workspaceRoot: string;
}): FreshnessNotice[] {
  const { first, told } = streamFacts(input.history);
  const notices: FreshnessNotice[] = [];
  const said = new Set<string>();
  for (const declaration of input.declarations) {
    if (declaration.refresh !== 'notify' || !isWatchable(declaration.url)) continue;
    const now = input.listed.get(declaration.url);
    if (now === undefined) continue;
    let readIn: number | undefined;
    for (const [uri, turn] of first) if (input.covers(declaration.url, uri) && (readIn === undefined || turn < readIn)) readIn = turn;
    if (readIn === undefined) continue;
    for (const uri of now) {
      if (first.has(uri) || told.has(uri) || said.has(uri) || input.attachedNow.has(uri)) continue;
      said.add(uri);
      const text = `${displayName(uri, input.workspaceRoot)} is new under ${declaration.url} (declared in turn ${readIn}; call refresh_resource to read it)`;
      notices.push({ uri, status: 'new', turn: readIn, declaration: declaration.url, text });
    }
  }
  return notices;
}
