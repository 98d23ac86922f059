import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConversationEvent, FreshnessNotice, Resource } from '@jp/core';
import { schemeOf } from '@jp/attachments';
import { resourceSha256 } from '../store/blob-sha256.ts';

/** How a declaration's sources are watched between turns: a notice when one changed, or nothing. */
export type RefreshPolicy = 'notify' | 'manual';

/** The newest snapshot of a URI in the stream, and the notice already given about it since, if any. */
export interface NewestSnapshot {
  uri: string;
  sha256: string;
  /** The turn that holds it (0-based, as `conversation show` numbers turns). */
  turn: number;
  /** Whether the user attached it (a `chat_request`) rather than a tool returning it (`refresh_resource`). */
  attached: boolean;
  /** The newest notice about this URI after this snapshot. */
  noticed?: FreshnessNotice | undefined;
}

/**
 * The newest snapshot of every URI in the stream, in order of first appearance, each with the
 * newest notice given after it: a later snapshot (re-attached or refreshed) clears the notice.
 */
export function newestSnapshots(events: readonly ConversationEvent[]): NewestSnapshot[] {
  const newest = new Map<string, NewestSnapshot>();
  let turn = -1;
  const saw = (resource: Resource, attached: boolean) => {
    newest.set(resource.uri, { uri: resource.uri, sha256: resourceSha256(resource), turn: Math.max(turn, 0), attached });
  };
  for (const event of events) {
    if (event.type === 'turn_start') turn++;
    else if (event.type === 'chat_request') {
      const request = event as { resources: Resource[]; notices?: FreshnessNotice[] };
      // The notices came before this request's resources were read by the model; they are older.
      for (const notice of request.notices ?? []) {
        const snapshot = newest.get(notice.uri);
        if (snapshot !== undefined) snapshot.noticed = notice;
      }
      for (const resource of request.resources) saw(resource, true);
    } else if (event.type === 'tool_call_response') {
      const { content } = event as { content: Array<{ type: string; resource?: Resource }> };
      for (const block of content) if (block.type === 'resource' && block.resource) saw(block.resource, false);
    }
  }
  return [...newest.values()];
}

/** A declaration as the freshness check reads it: what it names, and its policy. */
export interface WatchedDeclaration {
  url: string;
  refresh: RefreshPolicy;
}

/**
 * Whether a declaration's sources are checked at the start of a turn: only files. A `cmd:` would
 * run a command every turn, `http(s):` would fetch and an MCP declaration would call a server —
 * slow, with side effects, and not the user's request; `jp attachment ls --check` checks those
 * on demand. `external:` and `stdin:` have no source to read again.
 */
export function isWatchable(declaration: string): boolean {
  const scheme = schemeOf(declaration);
  return scheme === undefined || scheme === 'file';
}

/**
 * The snapshots to check this turn: the newest of each `file:` URI a `notify` declaration covers
 * (the first declaration covering it decides), except URIs this turn attaches again anyway.
 */
export function snapshotsToCheck(
  snapshots: readonly NewestSnapshot[],
  declarations: readonly WatchedDeclaration[],
  covers: (declaration: string, uri: string) => boolean,
  attachedNow: ReadonlySet<string>,
): NewestSnapshot[] {
  return snapshots.filter((snapshot) => {
    if (schemeOf(snapshot.uri) !== 'file' || attachedNow.has(snapshot.uri)) return false;
    const declaration = declarations.find((candidate) => covers(candidate.url, snapshot.uri));
    return declaration !== undefined && declaration.refresh === 'notify' && isWatchable(declaration.url);
  });
}

/** How a source compares with its snapshot now: its sha256 when it could be read, or gone. */
export type SourceNow = { status: 'fresh' | 'changed'; sha256: string } | { status: 'missing' } | { status: 'unknown' };

/** A `file:` URI as the user knows it: its path relative to the workspace. */
export function displayName(uri: string, workspaceRoot: string): string {
  try {
    const relative = path.relative(workspaceRoot, fileURLToPath(uri));
    return relative === '' || relative.startsWith('..') ? uri : relative.split(path.sep).join('/');
  } catch {
    return uri;
  }
}

/**
 * The notices this turn adds: one per snapshot whose source changed or is gone, unless the same
 * state was noticed already since that snapshot (a change is told once, not every turn). A source
 * that could not be checked for another reason gives no notice.
 */
export function decideNotices(checked: readonly NewestSnapshot[], now: readonly SourceNow[], workspaceRoot: string): FreshnessNotice[] {
  const notices: FreshnessNotice[] = [];
  checked.forEach((snapshot, i) => {
    const source = now[i]!;
    if (source.status !== 'changed' && source.status !== 'missing') return;
    const sha256 = source.status === 'changed' ? source.sha256 : undefined;
    const told = snapshot.noticed;
    if (told !== undefined && told.status === source.status && told.sha256 === sha256) return;
    const name = displayName(snapshot.uri, workspaceRoot);
    const since = `since it was ${snapshot.attached ? 'attached' : 'read'} in turn ${snapshot.turn}`;
    const text =
      source.status === 'changed'
        ? `${name} changed ${since} (call refresh_resource to read it)`
        : `${name} was deleted ${since}`;
    notices.push({ uri: snapshot.uri, status: source.status, turn: snapshot.turn, ...(sha256 === undefined ? {} : { sha256 }), text });
  });
  return notices;
}
