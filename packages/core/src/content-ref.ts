import * as z from 'zod';

/** A lowercase hex sha256. */
export const SHA256_PATTERN = /^[0-9a-f]{64}$/;

/**
 * Content held apart from the resource that names it — in the workspace's blob store, or written
 * there during this run — identified by the sha256 of its raw bytes. `encoding` says what the
 * bytes become when loaded: `text` (UTF-8, into `text`) or `binary` (into `blob`).
 */
export const ContentRefSchema = z.object({
  sha256: z.string().regex(SHA256_PATTERN, 'a sha256 in lowercase hex'),
  size: z.number().int().nonnegative(),
  encoding: z.enum(['text', 'binary']),
});
export type ContentRef = z.infer<typeof ContentRefSchema>;
