import { UsageError } from '@jp/core';

/** What `jp conversation grep` searches: the parts of a conversation, each by name. */
export const SEARCH_SCOPES = ['user', 'assistant', 'reasoning', 'tool', 'resource', 'title'] as const;
export type SearchScope = (typeof SEARCH_SCOPES)[number];

/** Everything but reasoning: the model's thinking is long and rarely what one looks for. */
export const DEFAULT_SCOPES: readonly SearchScope[] = SEARCH_SCOPES.filter((scope) => scope !== 'reasoning');

function isScope(value: string): value is SearchScope {
  return (SEARCH_SCOPES as readonly string[]).includes(value);
}

/**
 * The scopes `--scope` names: comma-separated, repeatable, `all` for every one; none given means
 * the default. An unknown name is a usage error naming the ones there are.
 */
export function parseScopes(values: readonly string[] | undefined): Set<SearchScope> {
  const names = (values ?? []).flatMap((value) => value.split(',')).map((name) => name.trim().toLowerCase()).filter((name) => name !== '');
  if (names.length === 0) return new Set(DEFAULT_SCOPES);
  const scopes = new Set<SearchScope>();
  for (const name of names) {
    if (name === 'all') SEARCH_SCOPES.forEach((scope) => scopes.add(scope));
    else if (isScope(name)) scopes.add(name);
    else throw new UsageError(`unknown scope ${JSON.stringify(name)}; the scopes are ${SEARCH_SCOPES.join(', ')} (or all)`, { code: 'usage_error' });
  }
  return scopes;
}
