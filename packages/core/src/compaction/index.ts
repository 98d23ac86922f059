// Compaction (RFD 027): an overlay event that changes what the model is sent of older turns,
// never the turns on disk. Types and pure functions only; the schema is in compaction-event.ts.
export type { CompactionEvent, CompactionSummary } from './compaction-event.ts';
export { TOOL_POLICIES, type ToolPolicy } from './tool-policies.ts';
export { compactedResource, compactedResourceText, compactedToolResultText } from './compaction-stub.ts';
export { activeCompactions, projectCompactions, summaryRequestText, turnPolicies, type NumberedTurnStart, type TurnPolicy } from './project-compactions.ts';
export { DEFAULT_COMPACTION_RULES, compactionRange, planCompaction, type CompactionRules } from './plan-compaction.ts';
export { estimateRequestTokens, eventBytes, tokensOfBytes, viewBytes } from './estimate-tokens.ts';
export { describeCompaction, TOOL_POLICY_WORDS } from './describe-compaction.ts';
export { compactionsForFork } from './fork-compactions.ts';
export { autoCompactionVerdict } from './auto-compaction.ts';
