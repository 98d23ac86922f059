import * as z from 'zod';

/**
 * The provider's own verdict on why its prompt cache missed (Anthropic's
 * `diagnostics.cache_miss_reason`: `model_changed`, `system_changed`, `tools_changed`,
 * `messages_changed`, `previous_message_not_found`, `unavailable`), with the tokens it would have
 * read from cache where it says.
 */
export const CacheMissSchema = z.object({ reason: z.string().min(1), missedTokens: z.number().int().nonnegative().optional() });
export type CacheMiss = z.infer<typeof CacheMissSchema>;

/** A thinking block the provider dropped from a request (Anthropic's `input_transformations`): where, and why. */
export const DroppedBlockSchema = z.object({ path: z.string(), reason: z.string() });
export type DroppedBlock = z.infer<typeof DroppedBlockSchema>;

/**
 * One call to the model, after its answer's events (issue V): which provider and model, the
 * response's id (sent back as Anthropic's `diagnostics.previous_message_id` on the next call), that
 * call's usage, and what the provider said of the request: a cache miss and its reason, thinking
 * blocks it dropped. The turn's summed usage stays on its final answer.
 */
export const ModelCallEventSchema = z.object({
  type: z.literal('model_call'),
  timestamp: z.string(),
  provider: z.string().min(1),
  model: z.string().min(1),
  id: z.string().min(1).optional(),
  usage: z.record(z.string(), z.number()).optional(),
  cache_miss: CacheMissSchema.optional(),
  dropped: z.array(DroppedBlockSchema).optional(),
});
export type ModelCallEvent = z.infer<typeof ModelCallEventSchema>;
