import * as z from 'zod';
import { inputRequestSchema } from './input-request.ts';
import { lazily } from './lazily.ts';
import { resourceSchemas } from './resource.ts';

/** The schemas of tool output's blocks (RFD 058), built on first use (`lazily`). */
export const contentBlockSchemas = lazily(() => {
  const text = z.object({ type: z.literal('text'), text: z.string() });
  /** A resource returned by a tool; `formatted` here is the tool's presentation for the model. */
  const resource = z.object({
    type: z.literal('resource'),
    resource: resourceSchemas().resource,
    formatted: z.string().optional(),
  });
  const question = z.object({ type: z.literal('question'), question: inputRequestSchema() });
  /** Typed tool output: text, resources and questions, in order. */
  const block = z.discriminatedUnion('type', [text, resource, question]);
  return { text, resource, question, block };
});
type ContentBlockSchemas = ReturnType<typeof contentBlockSchemas>;

export type TextBlock = z.infer<ContentBlockSchemas['text']>;
export type ResourceBlock = z.output<ContentBlockSchemas['resource']>;
export type QuestionBlock = z.infer<ContentBlockSchemas['question']>;
export type ContentBlock = z.output<ContentBlockSchemas['block']>;
export type ContentBlockJson = z.input<ContentBlockSchemas['block']>;
