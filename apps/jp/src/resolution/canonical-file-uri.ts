import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ContentBlock } from '@jp/core';

/** The URI as a URL parser reads it (WHATWG): outer spaces and controls dropped, tabs and newlines removed. */
function asParsed(uri: string): string {
  return uri.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
}

/**
 * A `file:` URI a tool returned, made canonical against the workspace root: `file:src/a.rs`,
 * `FILE:///<root>/src/../src/a.rs` and `file://localhost/<root>/src/a.rs` all become
 * `file:///<root>/src/a.rs`. A file outside the workspace throws, so its path is never stored;
 * the check is on the path as written (a symlink is followed when the file is read). Other URIs
 * are returned unchanged.
 */
export function canonicalFileUri(uri: string, workspaceRoot: string): string {
  const parsed = asParsed(uri);
  if (!/^file:/i.test(parsed)) return uri;
  const rest = parsed.slice('file:'.length);
  // `file://…` (a URL parser takes `\` for `/` in it) is absolute; `file:rel/path` is jp's relative form.
  const absolute = /^[/\\]{2}/.test(rest) ? fileURLToPath(new URL(parsed)) : path.resolve(workspaceRoot, decodeURIComponent(rest));
  const relative = path.relative(workspaceRoot, absolute);
  if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) throw new Error(`${uri} is outside the workspace`);
  return pathToFileURL(absolute).href;
}

/**
 * The resource blocks of a tool result with their `file:` URIs made canonical; a block whose URI
 * names a file outside the workspace (or cannot be read as a file URI) is left out with a warning,
 * as `parseToolOutput` leaves out a local tool's.
 */
export function withCanonicalFileUris(content: readonly ContentBlock[], workspaceRoot: string): { content: ContentBlock[]; warnings: string[] } {
  const kept: ContentBlock[] = [];
  const warnings: string[] = [];
  content.forEach((block, index) => {
    if (block.type !== 'resource') {
      kept.push(block);
      return;
    }
    let uri: string;
    try {
      uri = canonicalFileUri(block.resource.uri, workspaceRoot);
    } catch (error) {
      warnings.push(`content block ${index} (resource) was skipped: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    kept.push(uri === block.resource.uri ? block : { ...block, resource: { ...block.resource, uri } });
  });
  return { content: kept, warnings };
}
