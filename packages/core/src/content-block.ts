import * as z from 'zod';
import { InputRequestSchema } from './input-request.ts';
import { ResourceSchema } from './resource.ts';

export const TextBlockSchema = z.object({ type: z.literal('text'), text: z.string() });
export type TextBlock = z.infer<typeof TextBlockSchema>;

/** A resource returned by a tool; `formatted` here is the tool's presentation for the model. */
export const ResourceBlockSchema = z.object({
  type: z.literal('resource'),
  resource: ResourceSchema,
  formatted: z.string().optional(),
});
export type ResourceBlock = z.output<typeof ResourceBlockSchema>;

export const QuestionBlockSchema = z.object({ type: z.literal('question'), question: InputRequestSchema });
export type QuestionBlock = z.infer<typeof QuestionBlockSchema>;

/** Typed tool output (RFD 058): text, resources and questions, in order. */
export const ContentBlockSchema = z.discriminatedUnion('type', [TextBlockSchema, ResourceBlockSchema, QuestionBlockSchema]);
export type ContentBlock = z.output<typeof ContentBlockSchema>;
export type ContentBlockJson = z.input<typeof ContentBlockSchema>;
