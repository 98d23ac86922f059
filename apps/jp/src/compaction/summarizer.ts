import type { CompactionSummary, ConversationEvent } from '@jp/core';
import type { Provider } from '@jp/providers';
import type { Config } from '../config/config-schema.ts';
import type { Output } from '../output/output.ts';
import type { TurnContent } from '../store/turn-content.ts';
import { selectProvider } from '../turn/select-provider.ts';
import { DEFAULT_SUMMARY_PROMPT } from './summary-prompt.ts';
import { summarizeTurns } from './summarize-turns.ts';

/**
 * The summarizer a compaction calls: `conversation.compaction.summary_model` when set, else the
 * conversation's model (`current`, when the caller has its provider already). Its key is read
 * only when a summary is actually asked for.
 */
export function summarizer(input: {
  config: Config;
  content: TurnContent;
  output: Output;
  signal?: AbortSignal | undefined;
  current?: { provider: Provider; model: string } | undefined;
}): (view: ConversationEvent[], to: number) => Promise<CompactionSummary> {
  const { config } = input;
  const settings = config.conversation.compaction;
  return async (view, to) => {
    const modelId = settings.summary_model ?? config.assistant.model;
    const chosen =
      settings.summary_model === undefined && input.current !== undefined
        ? input.current
        : selectProvider({ ...config, assistant: { ...config.assistant, model: modelId } });
    return summarizeTurns({
      view,
      to,
      provider: chosen.provider,
      modelId: modelId ?? `${chosen.provider.id}/${chosen.model}`,
      model: chosen.model,
      prompt: settings.summary_prompt ?? DEFAULT_SUMMARY_PROMPT,
      system: config.assistant.system_prompt,
      content: input.content,
      output: input.output,
      signal: input.signal,
    });
  };
}
