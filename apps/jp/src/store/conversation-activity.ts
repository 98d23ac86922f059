import { mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from './atomic-write.ts';
import { planBranches } from '@jp/core';
import { turnNodesOf } from './branch-lines.ts';
import { LOCAL_DIR } from './jp-git-files.ts';
import { unfinishedAppend } from './unfinished-append.ts';

/**
 * How many turns a conversation has and when it was last active: derived from its events.jsonl,
 * not kept in metadata.json, which two clones would both rewrite on every turn and git could not
 * merge (RFD 029). Counts are cached in `.jp/local/activity.json`, keyed by the file's size and
 * mtime, so listing reads one events file only when it changed.
 */
export interface Activity {
  turnCount: number;
  lastActivityAt: string | undefined;
  /** The newest `title` event's title (newest timestamp; ties: the greater title). */
  title?: string | undefined;
  /** The newest `removal` event, when the stream has one (RFD 029). */
  removal?: { timestamp: string; turns: number } | undefined;
  /** Why events.jsonl does not load, found while counting (git conflict markers, a line that is not JSON); undefined when it reads. */
  damage?: string | undefined;
  /**
   * Lines of turns other clones went on with from a common turn (RFD 029); `turnCount` is the
   * conversation's own line. Each with its last turn's id (`tip`) and the ids of its own turns
   * (past the `shared` ones), so a clone finds the line its own turns are on (`your-line.ts`).
   */
  branches?: Array<{ key: string; turns: number; shared: number; lastActivityAt: string; tip: string; own: string[] }> | undefined;
  /** With branches: the id of the conversation's own line's last turn, and that line's newest time. */
  mainTip?: string | undefined;
  mainLastActivityAt?: string | undefined;
  /** `branch_removal` events by branch key, the one that saw the most turns (issue W). */
  branchRemovals?: Record<string, { timestamp: string; turns: number }> | undefined;
}

/** The cache's format: entries of another are counted again. */
const VERSION = 2;

interface Entry extends Activity {
  size: number;
  mtimeMs: number;
  v?: number;
}

const TURN_START = /"type":"turn_start"/g;
const TIMESTAMP = /"timestamp":"([^"\\]+)"/g;

const RECORD_LINE = /^.*"type":"(?:title|removal|branch_removal)".*$/gm;
const TURN_LINE = /^.*"type":"turn_start".*$/gm;

/** The conversation's own line's length, and its branches, from the `turn_start` lines alone. */
function branchesOfText(text: string): Pick<Activity, 'turnCount' | 'branches' | 'mainTip' | 'mainLastActivityAt'> | undefined {
  const starts: unknown[] = [];
  for (const [line] of text.matchAll(TURN_LINE)) {
    try {
      starts.push(JSON.parse(line));
    } catch {
      return undefined; // a damaged line is the reader's to report
    }
  }
  const nodes = turnNodesOf(starts);
  const plan = planBranches(nodes);
  if (plan.branches.length === 0) return undefined;
  const branches = plan.branches.map((branch) => ({
    key: branch.key,
    turns: branch.turns.length,
    shared: branch.shared,
    lastActivityAt: branch.turns.map((turn) => nodes[turn]!.timestamp).reduce((a, b) => (b > a ? b : a), ''),
    tip: nodes[branch.turns.at(-1)!]!.id,
    own: branch.turns.slice(branch.shared).map((turn) => nodes[turn]!.id),
  }));
  const mainTip = plan.main.length === 0 ? undefined : nodes[plan.main.at(-1)!]!.id;
  const mainLastActivityAt = plan.main.map((turn) => nodes[turn]!.timestamp).reduce((a, b) => (b > a ? b : a), '');
  return { turnCount: plan.main.length, branches, mainLastActivityAt, ...(mainTip === undefined ? {} : { mainTip }) };
}

/**
 * Counts `turn_start` lines, finds the latest timestamp, the title and the removal; after a union
 * merge the last line need not be the latest, so each is decided by timestamps, not line order.
 */
/**
 * Why the events file does not load, if it does not: conflict markers a hand merge left, or a line
 * that is not JSON. A torn last line (an interrupted append) reads, with a warning, so it is none.
 */
export function eventsDamage(text: string): string | undefined {
  const lines = text.split('\n');
  const last = lines.length - 1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    if (/^(<{7}|>{7}|={7})( |$)/.test(line)) return `events.jsonl line ${i + 1} holds git conflict markers; resolve them by hand, keeping both sides' lines`;
    if (line.charCodeAt(0) !== 123 /* { */ || line.charCodeAt(line.length - 1) !== 125 /* } */) {
      if (i === last) continue;
      return `events.jsonl line ${i + 1} is damaged (not a JSON object); repair or remove that line`;
    }
  }
  return undefined;
}

export function activityOfText(text: string): Activity {
  const turnCount = text.match(TURN_START)?.length ?? 0;
  let lastActivityAt: string | undefined;
  for (const match of text.matchAll(TIMESTAMP)) if (lastActivityAt === undefined || match[1]! > lastActivityAt) lastActivityAt = match[1];
  const damage = eventsDamage(text);
  const activity: Activity = { turnCount, lastActivityAt, ...(damage === undefined ? branchesOfText(text) : { damage }) };
  let titleAt = '';
  for (const [line] of text.matchAll(RECORD_LINE)) {
    let record: { type?: unknown; timestamp?: unknown; title?: unknown; turns?: unknown; branch?: unknown };
    try {
      record = JSON.parse(line) as typeof record;
    } catch {
      continue; // a damaged line is the reader's to report
    }
    if (typeof record.timestamp !== 'string') continue;
    if (record.type === 'title' && typeof record.title === 'string') {
      const newer = record.timestamp > titleAt || (record.timestamp === titleAt && record.title > (activity.title ?? ''));
      if (newer) [titleAt, activity.title] = [record.timestamp, record.title];
    } else if (record.type === 'removal' && typeof record.turns === 'number') {
      if (activity.removal === undefined || record.turns > activity.removal.turns) activity.removal = { timestamp: record.timestamp, turns: record.turns };
    } else if (record.type === 'branch_removal' && typeof record.turns === 'number' && typeof record.branch === 'string') {
      const removals = (activity.branchRemovals ??= {});
      const known = removals[record.branch];
      if (known === undefined || record.turns > known.turns) removals[record.branch] = { timestamp: record.timestamp, turns: record.turns };
    }
  }
  return activity;
}

/** Whether a removal holds: it saw every turn there is. More turns: someone went on without seeing it, and the conversation stays. */
export function isRemoved(activity: Activity): boolean {
  return activity.removal !== undefined && activity.turnCount <= activity.removal.turns;
}

/**
 * When branch `key` was removed, if a `branch_removal` holds for it: it names that branch and saw
 * every turn the branch has (a branch someone went on with stays, as a conversation does). A
 * removal of one branch never touches the conversation or another branch.
 */
export function branchRemovedAt(activity: Activity, key: string): string | undefined {
  const removal = activity.branchRemovals?.[key];
  const branch = activity.branches?.find((line) => line.key === key);
  return removal !== undefined && branch !== undefined && branch.turns <= removal.turns ? removal.timestamp : undefined;
}

const caches = new Map<string, { entries: Record<string, Entry>; dirty: boolean }>();

function cacheFile(jpDir: string): string {
  return path.join(jpDir, LOCAL_DIR, 'activity.json');
}

function cacheOf(jpDir: string): { entries: Record<string, Entry>; dirty: boolean } {
  let cache = caches.get(jpDir);
  if (cache === undefined) {
    let entries: Record<string, Entry> = {};
    try {
      const json: unknown = JSON.parse(readFileSync(cacheFile(jpDir), 'utf8'));
      if (typeof json === 'object' && json !== null && !Array.isArray(json)) entries = json as Record<string, Entry>;
    } catch {
      // Missing or damaged: a cache, rebuilt from the events files.
    }
    cache = { entries, dirty: false };
    caches.set(jpDir, cache);
  }
  return cache;
}

/** The activity of conversation `id` (`conversations/<id>/events.jsonl` under `jpDir`); undefined when its events file cannot be read. */
export function conversationActivity(jpDir: string, id: string): Activity | undefined {
  const file = path.join(jpDir, 'conversations', id, 'events.jsonl');
  let size: number;
  let mtimeMs: number;
  try {
    ({ size, mtimeMs } = statSync(file));
  } catch {
    return undefined;
  }
  const cache = cacheOf(jpDir);
  const known = cache.entries[id];
  if (known !== undefined && known.size === size && known.mtimeMs === mtimeMs && known.v === VERSION) return known;
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  // An append that has not finished is not counted, nor is what is counted meanwhile kept.
  const unfinished = unfinishedAppend(file);
  if (unfinished !== undefined) return activityOfText(bytes.subarray(0, unfinished).toString('utf8'));
  const activity = activityOfText(bytes.toString('utf8'));
  cache.entries[id] = { ...activity, size, mtimeMs, v: VERSION };
  cache.dirty = true;
  return activity;
}

/**
 * The cached activity of conversation `id` when it is current (its events.jsonl has the size and
 * mtime it was counted at); undefined when it is not cached or stale. Counts nothing: for a reader
 * that has the file's bytes in hand and would rather look for what it needs itself.
 */
export function freshActivity(jpDir: string, id: string): Activity | undefined {
  let stat: { size: number; mtimeMs: number };
  try {
    stat = statSync(path.join(jpDir, 'conversations', id, 'events.jsonl'));
  } catch {
    return undefined;
  }
  const known = cacheOf(jpDir).entries[id];
  return known !== undefined && known.size === stat.size && known.mtimeMs === stat.mtimeMs ? known : undefined;
}

/** Writes the cache when something was counted; best effort (a read-only workspace still lists). */
export function saveActivity(jpDir: string): void {
  const cache = caches.get(jpDir);
  if (cache === undefined || !cache.dirty) return;
  try {
    mkdirSync(path.join(jpDir, LOCAL_DIR), { recursive: true });
    writeFileAtomic(cacheFile(jpDir), `${JSON.stringify(cache.entries)}\n`, { flush: false });
    cache.dirty = false;
  } catch {
    // Counted again next time.
  }
}

/**
 * `metadata` with its turn count, last activity and title taken from the events file when it can
 * be read (metadata.json holds the title the conversation was created with).
 */
export function withActivity<T extends { id: string; turnCount: number; lastActivityAt: string; title?: string | undefined }>(jpDir: string, metadata: T): T {
  const activity = conversationActivity(jpDir, metadata.id);
  if (activity === undefined) return metadata;
  const last = activity.lastActivityAt !== undefined && activity.lastActivityAt > metadata.lastActivityAt ? activity.lastActivityAt : metadata.lastActivityAt;
  return { ...metadata, turnCount: activity.turnCount, lastActivityAt: last, ...(activity.title === undefined ? {} : { title: activity.title }) };
}

/** When conversation `id` was removed, if a removal holds for it (`isRemoved`); undefined otherwise. */
export function removedAt(jpDir: string, id: string): string | undefined {
  const activity = conversationActivity(jpDir, id);
  return activity !== undefined && isRemoved(activity) ? activity.removal!.timestamp : undefined;
}
