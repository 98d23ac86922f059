import { sha256Of } from '../store/blob-sha256.ts';
import { BadReference, contentReference, resourceSlots, type Json } from '../store/stored-references.ts';
import type { SearchScope } from './search-scope.ts';

/** A resource snapshot a stored line holds, as a search names it. */
export interface SnapshotRef {
  uri: string;
  name?: string | undefined;
  mimeType?: string | undefined;
  sha256: string;
  /** Its content, when the line carries it inline (older or hand-written lines); else it is in the blob store. */
  inline?: string | undefined;
}

/** One text of a stored event, with the scope it is searched under. */
export interface ScopedText {
  scope: SearchScope;
  text: string;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * The texts of one stored event (its JSON as written) that the scopes ask for, as `jp conversation
 * show` prints them: the query (user); the answer, a structured answer as JSON, and a compaction's
 * summary (assistant); reasoning; a tool call's name and its arguments (as JSON), the text and
 * questions of its result (tool). Resources are apart (`snapshotsOf`).
 */
export function textsOf(json: Json, scopes: ReadonlySet<SearchScope>): ScopedText[] {
  const texts: ScopedText[] = [];
  const add = (scope: SearchScope, text: string | undefined) => {
    if (text !== undefined && scopes.has(scope)) texts.push({ scope, text });
  };
  switch (json.type) {
    case 'chat_request':
      add('user', str(json.content));
      break;
    case 'chat_response':
      add('assistant', str(json.message));
      add('reasoning', str(json.reasoning));
      if ('structured' in json && json.structured !== undefined) add('assistant', JSON.stringify(json.structured));
      break;
    case 'compaction':
      add('assistant', str((json.summary as Json | undefined)?.text));
      break;
    case 'tool_call_request':
      // The name and the arguments apart: a match never spans them, so the bytes of each, as
      // stored, hold any match in it (byte-prefilter.ts).
      add('tool', str(json.name));
      if (json.arguments !== undefined) add('tool', JSON.stringify(json.arguments));
      break;
    case 'tool_call_response':
      for (const block of Array.isArray(json.content) ? (json.content as Json[]) : []) {
        if (block?.type === 'text') add('tool', str(block.text));
        else if (block?.type === 'question') add('tool', str((block.question as Json | undefined)?.text));
      }
      break;
    default:
      break;
  }
  return texts;
}

/**
 * The text snapshots of one stored event: attachments of a request, resources of a tool result.
 * A binary snapshot (`encoding: "binary"`, or inline `blob`) is never searched as text and is left
 * out; so is a resource whose reference is malformed (the store reports such a line when it reads it).
 */
export function snapshotsOf(json: Json): SnapshotRef[] {
  const found: SnapshotRef[] = [];
  for (const { resource } of resourceSlots(json)) {
    const uri = str(resource.uri);
    if (uri === undefined) continue;
    const described = { uri, name: str(resource.name), mimeType: str(resource.mimeType) };
    let reference: ReturnType<typeof contentReference>;
    try {
      reference = contentReference(resource);
    } catch (error) {
      if (error instanceof BadReference) continue;
      throw error;
    }
    if (reference !== undefined) {
      if (reference.encoding === 'text') found.push({ ...described, sha256: reference.sha256 });
    } else if (typeof resource.text === 'string') {
      found.push({ ...described, sha256: sha256Of(resource.text), inline: resource.text });
    }
  }
  return found;
}
