import * as z from 'zod';
import { AnnotationsSchema } from './annotations.ts';
import { Base64BytesSchema } from './base64.ts';
import { ContentRefSchema } from './content-ref.ts';
import { describeIssues } from './describe-issues.ts';

/**
 * Fields every resource has. `uri`, `mimeType`, `annotations` and `_meta` are MCP's; `name`,
 * `title`, `description` and `formatted` are jp's extensions, absent on resources built from MCP
 * data. Checksums are over the raw content, never over `formatted`.
 */
const fields = {
  uri: z.string().min(1),
  mimeType: z.string().optional(),
  annotations: AnnotationsSchema.optional(),
  _meta: z.record(z.string(), z.unknown()).optional(),
  name: z.string().optional(),
  title: z.string().optional(),
  description: z.string().optional(),
  formatted: z.string().optional(),
};
const absent = z.never().optional();

/**
 * The content variants exclude each other: each forbids the others' fields, so a resource carrying
 * two is rejected instead of silently losing one (zod strips unknown keys by default).
 */
export const TextResourceSchema = z.object({ ...fields, text: z.string(), blob: absent, ref: absent });
/** `blob` is base64 in JSON and a `Uint8Array` in memory. */
export const BlobResourceSchema = z.object({ ...fields, blob: Base64BytesSchema, text: absent, ref: absent });
/** Content stored apart (`ContentRef`); `resolveResourceContent` makes it a text or blob resource. */
export const RefResourceSchema = z.object({ ...fields, ref: ContentRefSchema, text: absent, blob: absent });

/**
 * A resource whose content is here: MCP's resource-contents form plus jp's extensions. This is
 * what tools, MCP servers and handlers produce and what providers convert; data from outside jp
 * is parsed with this schema, never with `ResourceSchema`, so it cannot name stored content.
 */
export const LoadedResourceSchema = z.union([TextResourceSchema, BlobResourceSchema], { error: (issue) => contentError(issue, false) });

/**
 * A snapshot in a conversation: its content inline, or a reference to stored content. The event
 * stream holds references; one step (`resolveResourceContent`) loads them before providers
 * convert.
 */
export const ResourceSchema = z.union([TextResourceSchema, BlobResourceSchema, RefResourceSchema], { error: (issue) => contentError(issue, true) });

export type TextResource = z.output<typeof TextResourceSchema>;
export type BlobResource = z.output<typeof BlobResourceSchema>;
export type RefResource = z.output<typeof RefResourceSchema>;
export type LoadedResource = TextResource | BlobResource;
export type Resource = LoadedResource | RefResource;
/** The JSON (wire) form of a loaded resource: `blob` as base64. */
export type ResourceJson = z.input<typeof LoadedResourceSchema>;
/** The JSON of a resource without its content: every field but `text`, `blob`, `ref` and `formatted`. */
export type ResourceMetadataJson = Omit<ResourceJson, 'text' | 'blob' | 'formatted'>;

const CONTENT_FIELDS = ['text', 'blob', 'ref'] as const;

/**
 * The union's error: several content fields or none, said so; exactly one, the problems of that
 * variant (`text: Invalid input: expected string, received number`), not zod's bare "Invalid input".
 */
function contentError(issue: z.core.$ZodRawIssue, refs: boolean): string | undefined {
  if (issue.code !== 'invalid_union' || typeof issue.input !== 'object' || issue.input === null) return undefined;
  const input = issue.input as Record<string, unknown>;
  const present = CONTENT_FIELDS.filter((field) => input[field] !== undefined);
  const expected = refs ? '"text" (a string), "blob" (base64) or "ref" (stored content)' : '"text" (a string) or "blob" (base64)';
  if (present.length > 1) return `a resource has one of ${expected}, not ${present.map((field) => `"${field}"`).join(' and ')}`;
  if (present.length === 0 || (!refs && present[0] === 'ref')) return `a resource needs ${expected}`;
  const branch = issue.errors[CONTENT_FIELDS.indexOf(present[0]!)];
  return branch !== undefined && branch.length > 0 ? describeIssues(branch) : undefined;
}

/** Parses the JSON form of a loaded resource (from a tool, a server, a file); throws a ZodError when malformed. */
export function resourceFromJson(json: unknown): LoadedResource {
  return LoadedResourceSchema.parse(json);
}

/** The JSON form, with extension fields left out when absent. */
export function resourceToJson(resource: LoadedResource): ResourceJson {
  return z.encode(LoadedResourceSchema, resource);
}
