/** Conversations per `resources/list` page. */
export const PAGE_SIZE = 100;

/** A cursor the server did not make. */
export class BadCursor extends Error {}

function encodeCursor(id: string): string {
  return Buffer.from(JSON.stringify({ after: id }), 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): string {
  try {
    const json: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    const after = (json as { after?: unknown } | null)?.after;
    if (typeof after === 'string' && after !== '') return after;
  } catch {
    // fall through: not one of ours
  }
  throw new BadCursor(`cursor ${JSON.stringify(cursor.slice(0, 40))} was not made by this server; list again without one`);
}

/**
 * One page of conversation ids, newest first. The cursor names the last id served, not an offset:
 * conversations created or removed between two pages neither repeat nor skip the others.
 */
export function listPage(ids: readonly string[], cursor: string | undefined, size = PAGE_SIZE): { ids: string[]; nextCursor?: string } {
  const newest = [...ids].sort().reverse();
  const after = cursor === undefined ? undefined : decodeCursor(cursor);
  const start = after === undefined ? 0 : newest.findIndex((id) => id < after);
  const page = start < 0 ? [] : newest.slice(start, start + size);
  const more = start >= 0 && start + size < newest.length;
  return more ? { ids: page, nextCursor: encodeCursor(page.at(-1)!) } : { ids: page };
}
