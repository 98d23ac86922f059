import type * as z from 'zod';
import { UsageError } from '@jp/core';
import { configSchema, type Config } from './config-schema.ts';
import { nearestKey } from './config-keys.ts';
import { knownConfig, layerKnownValid } from './known-config.ts';
import { formatKey } from './format-key.ts';
import { mergeLayers, type ConfigLayer } from './merge-config.ts';
import { flattenLayers, type SourcedLayer } from './sourced-layer.ts';
import { rememberValidation, validationKey } from './validated-config-cache.ts';
import { valueAt } from './value-at.ts';

type Issue = z.core.$ZodIssue;

/** The key an issue is about: for an unknown key, that key. */
function issueKey(issue: Issue): PropertyKey[] {
  return issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]!] : [...issue.path];
}

function describe(issue: Issue): string {
  if (issue.code === 'unrecognized_keys') {
    const suggestion = nearestKey(issueKey(issue));
    return `unknown key ${formatKey(issueKey(issue))}${suggestion === undefined ? '' : ` (did you mean ${suggestion}?)`}`;
  }
  return `${issue.path.length > 0 ? formatKey(issue.path) : '(top level)'}: ${issue.message}`;
}

function invalid(label: string, what: string): UsageError {
  return new UsageError(`invalid configuration in ${label}: ${what}`, { code: 'invalid_config' });
}

/**
 * Checks what one layer says on its own: a wrong type, an unknown key, a value out of range. A key
 * it leaves out (a server's `command`) may come from another layer, so missing keys are left to
 * the check of the merged configuration (`resolveConfig`), which names who set the table.
 */
export function checkLayer(layer: ConfigLayer, label: string): ConfigLayer {
  if (layerKnownValid(layer)) return layer;
  const remembered = validationKey('layer', layer);
  const result = configSchema().safeParse(layer);
  if (result.success) {
    if (remembered !== undefined) rememberValidation(remembered, true);
    return layer;
  }
  const own = result.error.issues.find((issue) => valueAt(layer, issueKey(issue)) !== undefined);
  if (own !== undefined) throw invalid(label, describe(own));
  return layer;
}

/**
 * The configuration of these layers, merged and then validated as a whole, so that one setting of
 * a table defined elsewhere (`-c mcp.x.startup_timeout_secs=30`) is enough. An error names the
 * layer that wrote the key at fault; for a key nobody wrote, the layers that set its table.
 */
export function resolveConfig(layers: readonly SourcedLayer[]): Config {
  const flat = flattenLayers(layers);
  const merged = mergeLayers(flat.map((sourced) => sourced.layer));
  const known = knownConfig(merged);
  if (known !== undefined) return known;
  const remembered = validationKey('merged', merged);
  const result = configSchema().safeParse(merged);
  if (result.success) {
    if (remembered !== undefined) rememberValidation(remembered, result.data);
    return result.data;
  }
  const issue = result.error.issues[0]!;
  const key = issueKey(issue);
  const writer = flat.findLast((sourced) => valueAt(sourced.layer, key) !== undefined);
  if (writer !== undefined) throw invalid(writer.label, describe(issue));
  for (let length = key.length - 1; length > 0; length--) {
    const table = key.slice(0, length);
    const holders = flat.filter((sourced) => valueAt(sourced.layer, table) !== undefined);
    if (holders.length === 0) continue;
    throw invalid(holders.at(-1)!.label, `${formatKey(key)} is missing (${formatKey(table)} is set only in ${holders.map((sourced) => sourced.label).join(' and ')})`);
  }
  throw invalid('the merged configuration', describe(issue));
}
