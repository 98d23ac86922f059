import { isJpError, ProviderError, UsageError } from '@jp/core';
import type { ModelInfo } from '@jp/providers';
import type { GlobalOptions } from '../cli/global-options.ts';
import { readCfgArgs, readFileLayers, resolveConfig } from '../config/load-config.ts';
import { formatModelRow, MODEL_TABLE_HEADER } from '../models/format-model-row.ts';
import { LISTED_PROVIDERS, listCatalogModels } from '../models/list-catalog-models.ts';
import { refreshListings } from '../models/refresh-listings.ts';
import { Output } from '../output/output.ts';
import { findWorkspace } from '../workspace/workspace.ts';

/** The workspace's `.jp/`, or none outside a workspace: `jp models` works anywhere. */
function workspaceJpDir(globals: GlobalOptions): string | undefined {
  try {
    return findWorkspace(process.cwd(), globals.workspace).jpDir;
  } catch (error) {
    if (globals.workspace !== undefined) throw error;
    return undefined;
  }
}

/**
 * `jp models [PROVIDER] [--refresh]`: what the model catalog knows of each model (RFD 031), with
 * where each value came from. `--refresh` first fetches the listings of the providers whose keys
 * (or local server) are set, through the configured `base_url`, and caches them per user; a named
 * provider that fails is exit 3, an unnamed one a warning.
 */
export async function modelsCommand(globals: GlobalOptions, provider: string | undefined, options: { refresh?: boolean }): Promise<void> {
  const output = new Output(globals);
  if (provider !== undefined && !(LISTED_PROVIDERS as readonly string[]).includes(provider)) {
    throw new UsageError(`unknown provider "${provider}"; jp models lists ${LISTED_PROVIDERS.join(', ')}`, { code: 'unknown_provider' });
  }
  const config = resolveConfig([...readFileLayers(workspaceJpDir(globals)), readCfgArgs(globals.cfg)]);
  const providers = provider === undefined ? [...LISTED_PROVIDERS] : [provider];
  let failure: unknown;
  if (options.refresh) {
    for (const outcome of await refreshListings(config, providers, provider !== undefined)) {
      if (outcome.models !== undefined) output.note(`jp: ${outcome.provider}: ${outcome.models} models listed and cached`);
      else if (outcome.skipped !== undefined) {
        if (provider !== undefined) throw new ProviderError(outcome.provider, `cannot list ${outcome.provider}'s models: ${outcome.skipped}`, { code: 'missing_api_key' });
        output.note(`jp: ${outcome.provider}: not refreshed (${outcome.skipped})`);
      } else if (provider !== undefined) failure = outcome.error;
      else output.warn(`${outcome.provider}: listing not refreshed: ${isJpError(outcome.error) ? outcome.error.message : String(outcome.error)}`);
    }
  }
  const models: ModelInfo[] = providers.flatMap((name) => listCatalogModels(config, name));
  if (output.json) for (const model of models) output.data(model);
  else {
    output.line(['dim', MODEL_TABLE_HEADER]);
    for (const model of models) output.line(formatModelRow(model));
  }
  if (failure !== undefined) throw failure;
}
