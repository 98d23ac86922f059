import * as z from 'zod';
import { SHA256_PATTERN } from './sha256-pattern.ts';

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
