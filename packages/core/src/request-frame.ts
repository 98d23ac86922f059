import * as z from 'zod';

/** A tool as a model is offered it: what providers send in `tools`. */
export const ToolDefinitionSchema = z.object({
  name: z.string().min(1),
  description: z.string(),
  parameters: z.record(z.string(), z.unknown()),
});
export type FramedTool = z.infer<typeof ToolDefinitionSchema>;

/**
 * What every request of a conversation starts with, fixed at its first turn (issue V, RFD 020):
 * the system prompt and the tools, sent byte for byte on every later request so that the prompt
 * cache keeps hitting and preserved-thinking models accept earlier thinking. A later change is
 * said in a turn's `notes` instead. Stored on the `chat_request` that fixed it.
 */
export const RequestFrameSchema = z.object({
  system: z.string().optional(),
  tools: z.array(ToolDefinitionSchema),
});
export type RequestFrame = z.infer<typeof RequestFrameSchema>;
