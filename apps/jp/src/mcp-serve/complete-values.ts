/** A conversation as completion sees it. */
export interface CompletionEntry {
  id: string;
  title?: string | undefined;
}

/**
 * Values for `{id}`: ids starting with what was typed, newest first, then conversations whose title
 * contains it (any case). The SDK keeps the first 100 and says whether there are more.
 */
export function completeIds(value: string, entries: readonly CompletionEntry[]): string[] {
  const newest = [...entries].sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  const byId = newest.filter((entry) => entry.id.startsWith(value)).map((entry) => entry.id);
  if (value === '') return byId;
  const wanted = value.toLowerCase();
  const taken = new Set(byId);
  const byTitle = newest.filter((entry) => !taken.has(entry.id) && entry.title?.toLowerCase().includes(wanted)).map((entry) => entry.id);
  return [...byId, ...byTitle];
}

/** Values for `{n}`: the turn numbers a conversation of `count` turns has that start with what was typed. */
export function completeTurns(value: string, count: number): string[] {
  return Array.from({ length: count }, (_, turn) => String(turn)).filter((turn) => turn.startsWith(value));
}

/** Values for `{sha256}`: the snapshot digests that start with what was typed (any case). */
export function completeDigests(value: string, digests: readonly string[]): string[] {
  const wanted = value.toLowerCase();
  return digests.filter((digest) => digest.startsWith(wanted));
}
