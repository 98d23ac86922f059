import { TOOL_POLICY_WORDS, type CompactionRules, type ToolPolicy } from '@jp/core';
import type { Config } from '../config/config-schema.ts';

/** `jp conversation compact`'s choices; a kind it names replaces the configured rules' kinds. */
export interface CompactionChoice {
  keepFirst?: number | undefined;
  keepLast?: number | undefined;
  reasoning?: boolean | undefined;
  tools?: ToolPolicy | undefined;
  resources?: boolean | undefined;
  summarize?: boolean | undefined;
}

/**
 * The rules a compaction applies: `[conversation.compaction]`, and where the command names kinds
 * (`--reasoning`, `--tools`, `--resources`, `--summarize`), only those.
 */
export function compactionRules(config: Config, choice: CompactionChoice = {}): CompactionRules & { summarize: boolean } {
  const configured = config.conversation.compaction;
  const named = choice.reasoning !== undefined || choice.tools !== undefined || choice.resources !== undefined || choice.summarize !== undefined;
  return {
    keepFirst: choice.keepFirst ?? configured.keep_first,
    keepLast: choice.keepLast ?? configured.keep_last,
    reasoning: named ? choice.reasoning === true : configured.reasoning,
    tools: named ? (choice.tools ?? 'keep') : configured.tools,
    resources: named ? choice.resources === true : configured.resources,
    summarize: named ? choice.summarize === true : configured.summarize,
  };
}

/** What a compaction does, in words: "reasoning stripped, tool results stubbed, resources stubbed". */
export function describeRules(rules: CompactionRules & { summarize: boolean }): string {
  const parts: string[] = [];
  if (rules.summarize) parts.push('summarised');
  if (rules.reasoning) parts.push('reasoning stripped');
  if (rules.tools !== 'keep') parts.push(TOOL_POLICY_WORDS[rules.tools]);
  if (rules.resources) parts.push('resources stubbed (URI and MIME type kept)');
  return parts.join(', ');
}
