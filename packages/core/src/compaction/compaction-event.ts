import * as z from 'zod';

import { TOOL_POLICIES } from './tool-policies.ts';

/** A summary a model made of the compacted turns: stored, since asking again would not give the same text. */
export const CompactionSummarySchema = z.object({
  text: z.string().min(1),
  /** The model that wrote it, as `provider/model`. */
  model: z.string().min(1),
});
export type CompactionSummary = z.infer<typeof CompactionSummarySchema>;

/**
 * An overlay on the stream (RFD 027): from now on, turns `from`..`to` (0-based, inclusive) are sent
 * to the model as the policies say. Appended, never a rewrite; the turns themselves stay as they
 * were on disk. A kind left out is not decided by this event, so compactions compose: for each
 * kind and turn the latest event deciding it wins. `reset` cancels every compaction before it.
 */
export const CompactionEventSchema = z
  .object({
    type: z.literal('compaction'),
    timestamp: z.string().min(1),
    from: z.number().int().nonnegative().optional(),
    to: z.number().int().nonnegative().optional(),
    reasoning: z.enum(['keep', 'strip']).optional(),
    tools: z.enum(TOOL_POLICIES).optional(),
    resources: z.enum(['keep', 'stub']).optional(),
    summary: CompactionSummarySchema.optional(),
    reset: z.literal(true).optional(),
  })
  .refine((event) => event.reset === true || (event.from !== undefined && event.to !== undefined && event.from <= event.to), {
    message: 'a compaction covers turns "from" to "to" (from ≤ to), or is a "reset"',
  });
export type CompactionEvent = z.infer<typeof CompactionEventSchema>;
