import * as z from 'zod';

/**
 * A new title for the conversation (RFD 029). Appended, where a rewrite of metadata.json would make
 * two clones that both renamed it conflict; the newest by timestamp wins (ties: the greater title),
 * the same on every clone whatever the order of the lines.
 */
export const TitleEventSchema = z.object({ type: z.literal('title'), timestamp: z.string().min(1), title: z.string().min(1) });
export type TitleEvent = z.infer<typeof TitleEventSchema>;

/**
 * `jp conversation rm` of a conversation git tracks (RFD 029): recorded, not done by deleting
 * files, so a clone that went on with it merges cleanly. It removes the conversation as it was:
 * `turns` is how many turns the remover saw. When more turns are there after a merge — someone
 * continued it without seeing the removal — the conversation stays, with a note.
 */
export const RemovalEventSchema = z.object({ type: z.literal('removal'), timestamp: z.string().min(1), turns: z.number().int().nonnegative() });
export type RemovalEvent = z.infer<typeof RemovalEventSchema>;

/**
 * `jp conversation rm ID~KEY` (issue W): one branch removed (RFD 029), named by its key; `turns`
 * is how many turns that branch had when it was removed. It hides that branch only, never the
 * conversation or another branch, and like a removal it gives way to turns added after it: a
 * branch someone went on with stays. Its own type, so that an older jp, which keeps an unknown
 * event and warns, can never read it as a removal of the conversation.
 */
export const BranchRemovalEventSchema = z.object({ type: z.literal('branch_removal'), timestamp: z.string().min(1), branch: z.string().min(1), turns: z.number().int().nonnegative() });
export type BranchRemovalEvent = z.infer<typeof BranchRemovalEventSchema>;
