import type { Resource } from '@jp/core';

/** The resources with the first occurrence of each URI kept, in order: two declarations may name the same thing. */
export function uniqueByUri(resources: readonly Resource[]): Resource[] {
  const seen = new Set<string>();
  return resources.filter((resource) => {
    if (seen.has(resource.uri)) return false;
    seen.add(resource.uri);
    return true;
  });
}

/**
 * The resources of reads run concurrently, in declaration order and each URI once; the first
 * failure in declaration order is thrown, whichever failed first in time.
 */
export function settledResources(outcomes: ReadonlyArray<PromiseSettledResult<readonly Resource[]>>): Resource[] {
  const resources: Resource[] = [];
  for (const outcome of outcomes) {
    if (outcome.status === 'rejected') throw outcome.reason;
    resources.push(...outcome.value);
  }
  return uniqueByUri(resources);
}
