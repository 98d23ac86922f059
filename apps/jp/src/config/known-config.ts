import type { Config } from './config-schema.ts';
import type { ConfigLayer } from './merge-config.ts';
import { recallValidation, validationKey } from './validated-config-cache.ts';

/*
 * What validating a configuration gave before, taken from the per-user cache (RFD 034) without
 * the schema: `validate-config.ts` asks here first, and a reader that must not load zod
 * (query/editor-first.ts) asks only here and leaves anything unknown to the full path.
 */

/** Whether this layer passed `checkLayer` before; `false` when that is not remembered. */
export function layerKnownValid(layer: ConfigLayer): boolean {
  const key = validationKey('layer', layer);
  return key !== undefined && recallValidation(key) === true;
}

/** The configuration validating this merged layer gave before (defaults applied), or `undefined` when it is not remembered. */
export function knownConfig(merged: ConfigLayer): Config | undefined {
  const key = validationKey('merged', merged);
  const known = key === undefined ? undefined : recallValidation(key);
  // Anything but a table under the key (a damaged file) is ignored, and the configuration validated afresh.
  return typeof known === 'object' && known !== null && !Array.isArray(known) ? (known as Config) : undefined;
}
