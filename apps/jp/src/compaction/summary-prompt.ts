/**
 * What the summary model is asked after the turns it summarises (`conversation.compaction.
 * summary_prompt` replaces it). The summary replaces those turns for the model from then on, so
 * it asks for what the work needs to go on, with resources named by URI: jp lists every URI the
 * turns held next to it anyway, and `refresh_resource` reads one again by that URI.
 */
export const DEFAULT_SUMMARY_PROMPT = [
  'This conversation is about to be compacted: everything above will be replaced, for you, by the summary you write now.',
  'Write that summary so that the work can go on from it alone:',
  "- the user's goal and constraints, in their words where they matter;",
  '- decisions taken, and why;',
  '- the state of the work: what is done, what is in progress, what is left;',
  '- facts learnt from files, commands and tool results that still matter (name each file or resource by its URI);',
  '- open questions and anything the user asked to remember.',
  'Be complete and brief. No preamble, no closing remarks.',
].join('\n');
