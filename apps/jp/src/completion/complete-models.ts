import { KNOWN_PROVIDERS } from '@jp/providers';
import type { CompletionCandidate } from './completion-candidate.ts';
import type { CompletionScope } from './completion-scope.ts';
import { isTable, readConfigTables } from './read-config-tables.ts';

/**
 * The configured models first (the workspace's, then the user's), then `echo` and each provider's
 * prefix (`anthropic/`): jp keeps no list of a provider's models, which change faster than jp.
 */
export function completeModels(scope: CompletionScope): CompletionCandidate[] {
  const configured = readConfigTables(scope.jpDir)
    .reverse()
    .map((file) => (isTable(file.assistant) ? file.assistant.model : undefined))
    .filter((model): model is string => typeof model === 'string' && model !== '')
    .map((model) => ({ value: model, description: 'configured' }));
  const providers = KNOWN_PROVIDERS.map((provider) => (provider === 'echo' ? { value: 'echo', description: 'answers with what it was sent' } : { value: `${provider}/` }));
  const seen = new Set<string>();
  return [...configured, ...providers].filter((candidate) => !seen.has(candidate.value) && seen.add(candidate.value));
}
