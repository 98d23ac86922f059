import * as z from 'zod';
import { AnnotationsSchema } from './annotations.ts';
import { InputRequestSchema } from './input-request.ts';
import { LoadedResourceSchema, ResourceSchema } from './resource.ts';

/** Tool output's blocks (RFD 058): text, resources and questions, discriminated on `type`. */
/** Text; `annotations` as MCP puts them on a tool result's text (audience, priority, lastModified), kept like a resource's. */
export const TextBlockSchema = z.object({ type: z.literal('text'), text: z.string(), annotations: AnnotationsSchema.optional() });
/** A resource returned by a tool; `formatted` here is the tool's presentation for the model. */
export const ResourceBlockSchema = z.object({ type: z.literal('resource'), resource: ResourceSchema, formatted: z.string().optional() });
export const QuestionBlockSchema = z.object({ type: z.literal('question'), question: InputRequestSchema });
/** A block as the conversation stores it: its resource may refer to stored content. */
export const ContentBlockSchema = z.discriminatedUnion('type', [TextBlockSchema, ResourceBlockSchema, QuestionBlockSchema]);

/**
 * A block as a tool or an MCP server gives it: a resource's content is inline. What comes from
 * outside jp is parsed with this schema, so it cannot point at stored content.
 */
export const ToolContentBlockSchema = z.discriminatedUnion('type', [
  TextBlockSchema,
  ResourceBlockSchema.extend({ resource: LoadedResourceSchema }),
  QuestionBlockSchema,
]);

export type TextBlock = z.infer<typeof TextBlockSchema>;
export type ResourceBlock = z.output<typeof ResourceBlockSchema>;
export type QuestionBlock = z.infer<typeof QuestionBlockSchema>;
export type ContentBlock = z.output<typeof ContentBlockSchema>;
export type ToolContentBlock = z.output<typeof ToolContentBlockSchema>;
export type ContentBlockJson = z.input<typeof ToolContentBlockSchema>;
