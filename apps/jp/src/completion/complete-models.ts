import { KNOWN_PROVIDERS, SHIPPED_MODELS } from '@jp/providers';
import { readCachedListingIds } from '../models/model-listing-cache.ts';
import type { CompletionCandidate } from './completion-candidate.ts';
import type { CompletionScope } from './completion-scope.ts';
import { isTable, readConfigTables } from './read-config-tables.ts';

/**
 * The configured models first (the workspace's, then the user's), then `echo` and each provider's
 * prefix (`anthropic/`), then the ids the model catalog knows: each provider's cached listing
 * (`jp models --refresh`) and jp's shipped table (RFD 031).
 */
export function completeModels(scope: CompletionScope): CompletionCandidate[] {
  const configured = readConfigTables(scope.jpDir)
    .reverse()
    .map((file) => (isTable(file.assistant) ? file.assistant.model : undefined))
    .filter((model): model is string => typeof model === 'string' && model !== '')
    .map((model) => ({ value: model, description: 'configured' }));
  const providers = KNOWN_PROVIDERS.map((provider) => (provider === 'echo' ? { value: 'echo', description: 'answers with what it was sent' } : { value: `${provider}/` }));
  const listed = Object.entries(readCachedListingIds()).flatMap(([provider, ids]) => ids.map((id) => ({ value: `${provider}/${id}`, description: 'listed' })));
  const shipped = Object.entries(SHIPPED_MODELS).flatMap(([provider, rows]) => rows.map((row) => ({ value: `${provider}/${row.id}` })));
  const seen = new Set<string>();
  return [...configured, ...providers, ...listed, ...shipped].filter((candidate) => !seen.has(candidate.value) && seen.add(candidate.value));
}
