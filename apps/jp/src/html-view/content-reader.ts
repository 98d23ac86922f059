import type { RefResource } from '@jp/core';

/**
 * Where the page gets the content it shows: at most `maxBytes` of a snapshot's stored content.
 * `complete` is false when there is more. The page asks only for what it shows.
 */
export interface ContentReader {
  read(resource: RefResource, maxBytes: number): { bytes: Uint8Array; complete: boolean };
}

/** How much of each text snapshot the page holds, folded (stated in the page). */
export const FOLD_CAP_BYTES = 16 * 1024;
