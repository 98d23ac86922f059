import * as z from 'zod';

/** A question a tool asks: a one-line label and a JSON Schema for the answer. */
export const InputRequestSchema = z.object({
  id: z.string().min(1),
  text: z.string(),
  schema: z.record(z.string(), z.unknown()),
  default: z.unknown().optional(),
});
export type InputRequest = z.infer<typeof InputRequestSchema>;
