import * as z from 'zod';

/**
 * A note jp adds to a turn's request: a declared attachment's source changed, or was deleted,
 * since its newest snapshot in the stream (RFD 020, "Freshness notices"). Stored with the
 * `chat_request` it belongs to, with the exact `text` the model is sent, so `--explain`, `show`
 * and a fork reproduce it byte for byte.
 */
export const FreshnessNoticeSchema = z.object({
  uri: z.string().min(1),
  status: z.enum(['changed', 'missing']),
  /** The turn of the snapshot the source no longer matches. */
  turn: z.number().int().nonnegative(),
  /** The source's sha256 now, for `changed`: the same change is noticed once. */
  sha256: z.string().optional(),
  text: z.string().min(1),
});
export type FreshnessNotice = z.infer<typeof FreshnessNoticeSchema>;
