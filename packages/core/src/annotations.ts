import * as z from 'zod';

/** MCP's resource annotations. jp records them and passes them on; it does not act on them yet. */
export const AnnotationsSchema = z.looseObject({
  audience: z.array(z.enum(['user', 'assistant'])).optional(),
  priority: z.number().min(0).max(1).optional(),
  lastModified: z.string().optional(),
});
export type Annotations = z.infer<typeof AnnotationsSchema>;
