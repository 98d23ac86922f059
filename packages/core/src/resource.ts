import * as z from 'zod';
import { annotationsSchema } from './annotations.ts';
import { base64BytesSchema } from './base64.ts';
import { describeIssues } from './describe-issues.ts';
import { lazily } from './lazily.ts';
import { utf8SourceOf } from './utf8-text-resource.ts';

/**
 * The resource schemas, built on first use (`lazily`). Fields every resource has: `uri`,
 * `mimeType` and `annotations` (and `_meta`) are MCP's; `name`, `title`, `description` and
 * `formatted` are jp's extensions, absent on resources built from MCP data. Text and blob are
 * exclusive: each variant forbids the other's field, so a resource carrying both is rejected
 * instead of silently losing one of them (zod strips unknown keys by default). `blob` is base64 in
 * JSON (`z.encode`) and a `Uint8Array` in memory (`parse`/`z.decode`).
 */
export const resourceSchemas = lazily(() => {
  const fields = {
    uri: z.string().min(1),
    mimeType: z.string().optional(),
    annotations: annotationsSchema().optional(),
    _meta: z.record(z.string(), z.unknown()).optional(),
    name: z.string().optional(),
    title: z.string().optional(),
    description: z.string().optional(),
    formatted: z.string().optional(),
  };
  const text = z.object({ ...fields, text: z.string(), blob: z.never().optional() });
  const blob = z.object({ ...fields, blob: base64BytesSchema(), text: z.never().optional() });
  /**
   * A snapshot of something attached to a conversation or returned by a tool: a canonical URI and
   * either text or bytes. The JSON form is MCP's resource-contents form plus jp's extensions.
   */
  const resource = z.union([text, blob], { error: contentError });
  return { text, blob, resource };
});
type ResourceSchemas = ReturnType<typeof resourceSchemas>;

export type TextResource = z.infer<ResourceSchemas['text']>;
export type BlobResource = z.output<ResourceSchemas['blob']>;
export type Resource = z.output<ResourceSchemas['resource']>;
/** The JSON (wire and disk) form of a resource: `blob` as base64. */
export type ResourceJson = z.input<ResourceSchemas['resource']>;

/**
 * The union's error. Both or neither of `text`/`blob`: say so. One of them: the problems of that
 * variant (e.g. `text: Invalid input: expected string, received number`), not zod's bare "Invalid input".
 */
function contentError(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code !== 'invalid_union' || typeof issue.input !== 'object' || issue.input === null) return undefined;
  const input = issue.input as { text?: unknown; blob?: unknown };
  const hasText = input.text !== undefined;
  const hasBlob = input.blob !== undefined;
  if (hasText && hasBlob) return 'a resource has either "text" or "blob", not both';
  if (!hasText && !hasBlob) return 'a resource needs "text" (a string) or "blob" (base64)';
  const branch = issue.errors[hasText ? 0 : 1];
  return branch !== undefined && branch.length > 0 ? describeIssues(branch) : undefined;
}

export function isTextResource(resource: Resource): resource is TextResource {
  // Asked of every resource at every stage: must not decode a lazy text (utf8-text-resource.ts).
  return utf8SourceOf(resource) !== undefined || ('text' in resource && typeof resource.text === 'string');
}

export function isBlobResource(resource: Resource): resource is BlobResource {
  return 'blob' in resource && resource.blob instanceof Uint8Array;
}

/** Parses the JSON form; throws a ZodError on a malformed resource. */
export function resourceFromJson(json: unknown): Resource {
  return resourceSchemas().resource.parse(json);
}

/** The JSON form, with extension fields left out when absent. */
export function resourceToJson(resource: Resource): ResourceJson {
  return z.encode(resourceSchemas().resource, resource);
}

/** The JSON of a resource without its content: every field but `text`, `blob` and `formatted`. */
export type ResourceMetadataJson = Omit<ResourceJson, 'text' | 'blob' | 'formatted'>;

/** The schema's metadata fields, in its order (a test holds the two together). */
const METADATA_KEYS: ReadonlyArray<keyof ResourceMetadataJson> = ['uri', 'mimeType', 'annotations', '_meta', 'name', 'title', 'description'];

/**
 * `resourceToJson` of the resource without `text`/`blob`/`formatted`, built by copying fields:
 * the stored form of a tree of attachments holds thousands of resources whose content goes
 * elsewhere (a blob store), and a schema encode per resource costs more than the rest of the line.
 * Valid for resources that passed the schema (or were built by jp's handlers), whose metadata
 * fields are plain JSON already.
 */
export function resourceMetadataJson(resource: Resource): ResourceMetadataJson {
  const json: Record<string, unknown> = {};
  for (const key of METADATA_KEYS) {
    const value = resource[key];
    if (value !== undefined) json[key] = value;
  }
  return json as ResourceMetadataJson;
}
