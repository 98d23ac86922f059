import { isJpError } from '@jp/core';
import type { AttachmentRegistry, HandlerContext } from '@jp/attachments';
import { resourceSha256 } from '../store/blob-sha256.ts';
import { refreshable, type RefreshEvidence } from './refreshable.ts';

/** What re-reading needs: the handlers, and what decides whether a URI may be re-read. */
export interface RefreshRouting {
  registry: AttachmentRegistry;
  handlerContext: HandlerContext;
  evidence: RefreshEvidence;
}

/**
 * How a snapshot compares with its source now:
 * - `fresh`: re-read, same sha256; `changed`: re-read, different content;
 * - `missing`: the source is gone (file deleted, 404, unknown MCP resource, command not found);
 * - `not-refreshable`: nothing may read it again (`external:` files, `stdin:`, and what `refreshable`
 *   refuses, such as a `cmd:` URI only a tool produced);
 * - `error`: re-reading failed for another reason (network, timeout, size policy) — see `error`.
 */
export type Freshness = 'fresh' | 'changed' | 'missing' | 'not-refreshable' | 'error';

export interface FreshnessCheck {
  status: Freshness;
  /** The source's sha256 now, for `fresh` and `changed`. */
  sha256?: string | undefined;
  /** Why re-reading failed, for `missing` and `error`. */
  error?: string | undefined;
}

/** Error codes of the handlers that mean "the source is not there any more". */
const MISSING_CODES = new Set(['file_not_found', 'mcp_resource_not_found', 'cmd_not_found']);

function isMissing(error: unknown): boolean {
  if (!isJpError(error)) return false;
  if (MISSING_CODES.has(error.code)) return true;
  return error.code === 'http_status' && /\breturned (404|410)\b/.test(error.message);
}

/** Re-reads one snapshot's source as `refresh_resource` would (the same `refreshable` rule) and compares checksums. */
export async function checkFreshness(uri: string, sha256: string, routing: RefreshRouting): Promise<FreshnessCheck> {
  const decision = refreshable(uri, routing.evidence);
  if (!decision.refreshable) return { status: 'not-refreshable' };
  try {
    const resource = await routing.registry.refresh(decision.input, routing.handlerContext);
    const now = resourceSha256(resource);
    return { status: now === sha256 ? 'fresh' : 'changed', sha256: now };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { status: isMissing(error) ? 'missing' : 'error', error: message };
  }
}

/** Checks many snapshots, a few at a time, keeping their order. */
export async function checkAll(
  snapshots: ReadonlyArray<{ uri: string; sha256: string }>,
  routing: RefreshRouting,
  concurrency = 8,
): Promise<FreshnessCheck[]> {
  const results: FreshnessCheck[] = new Array(snapshots.length);
  let next = 0;
  const worker = async () => {
    while (next < snapshots.length) {
      const i = next++;
      const snapshot = snapshots[i]!;
      results[i] = await checkFreshness(snapshot.uri, snapshot.sha256, routing);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, snapshots.length) }, worker));
  return results;
}
