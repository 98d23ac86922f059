/** What becomes of tool calls in compacted turns: kept, their arguments and/or results replaced by a stub, or the pairs left out. */
export const TOOL_POLICIES = ['keep', 'strip-arguments', 'strip-results', 'strip', 'omit'] as const;
export type ToolPolicy = (typeof TOOL_POLICIES)[number];
