import * as z from 'zod';

/** A superseded-snapshot decision recorded in a turn's request (RFD 020): see `SupersededMark`. */
export const SupersededMarkSchema = z.object({ turn: z.number().int().min(0), uri: z.string().min(1) });
