import * as z from 'zod';

/**
 * A note jp adds to a turn's request: a declared attachment's source changed, or was deleted,
 * since its newest snapshot in the stream, or a file appeared under a declared directory or glob
 * that the conversation has no snapshot of (`new`, with its `declaration`) (RFD 020, "Freshness notices"). Stored with the
 * `chat_request` it belongs to, with the exact `text` the model is sent, so `--explain`, `show`
 * and a fork reproduce it byte for byte.
 */
export const FreshnessNoticeSchema = z.object({
  uri: z.string().min(1),
  status: z.enum(['changed', 'missing', 'new']),
  /** The turn of the snapshot the source no longer matches; for `new`, the turn the declaration was first read in. */
  turn: z.number().int().nonnegative(),
  /** For `new`: the declared directory or glob the file is under. */
  declaration: z.string().min(1).optional(),
  /** The source's sha256 now, for `changed`: the same change is noticed once. */
  sha256: z.string().optional(),
  text: z.string().min(1),
});
export type FreshnessNotice = z.infer<typeof FreshnessNoticeSchema>;
