import { readFileSync } from 'node:fs';
import { parse as parseToml, stringify as stringifyToml } from 'smol-toml';
import { UsageError } from '@jp/core';
import type { GlobalOptions } from '../cli/global-options.ts';
import { workspaceContext } from '../cli/command-context.ts';
import { readCfgArgs, readFileLayers, readUserConfig, resolveConfig, userConfigFile, validateLayer, workspaceConfigFile } from '../config/load-config.ts';
import { layerFromPath, mergeConfig, type ConfigLayer } from '../config/merge-config.ts';
import { parseKey, parseValue } from '../config/parse-cfg-arg.ts';
import { withoutSecrets } from '../config/secret-fields.ts';
import { effectiveConversationLayers } from '../conversation/conversation-config.ts';
import { writeFileAtomic } from '../store/atomic-write.ts';

export async function configShow(globals: GlobalOptions, options: { id?: string }): Promise<void> {
  const ctx = workspaceContext(globals);
  const cli = readCfgArgs(globals.cfg);
  let layers: ConfigLayer[];
  if (options.id !== undefined) {
    const id = ctx.store.resolveId(options.id);
    layers = effectiveConversationLayers(readUserConfig(), ctx.store.baseConfig(id), (await ctx.store.scan(id)).configEvents);
  } else {
    layers = readFileLayers(ctx.workspace.jpDir);
  }
  const config = resolveConfig([...layers, cli]);
  if (ctx.output.json) ctx.output.data(config);
  else ctx.output.write(stringifyToml(config as Record<string, unknown>) + '\n');
}

/** `.jp/config.toml` may be committed: jp does not write a secret there (RFD 001, secrets). */
function refuseSecrets(layer: ConfigLayer): void {
  const [secret] = withoutSecrets(layer).removed;
  if (secret === undefined) return;
  const segments = secret.split('.');
  const instead =
    segments[0] === 'mcp' && segments[2] === 'env'
      ? `name a variable instead (jp config set ${secret.replace('.env.', '.env_from.')} VAR, or "\${VAR}" as the value)`
      : 'give it through an environment variable';
  throw new UsageError(`${secret} is a secret and .jp/config.toml may be committed: ${instead}, or set it in ${userConfigFile()}`, {
    code: 'secret_in_workspace',
  });
}

/** Sets one key in `.jp/config.toml`. The file is rewritten from its parsed form (comments are not kept). */
export async function configSet(globals: GlobalOptions, key: string, value: string): Promise<void> {
  const ctx = workspaceContext(globals);
  const segments = parseKey(key, 'jp config set');
  const file = workspaceConfigFile(ctx.workspace.jpDir);
  let current: ConfigLayer = {};
  try {
    current = parseToml(readFileSync(file, 'utf8')) as ConfigLayer;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const layer = layerFromPath(segments, parseValue(value));
  refuseSecrets(layer);
  const next = mergeConfig(current, layer);
  validateLayer(next, `jp config set ${key}`);
  writeFileAtomic(file, stringifyToml(next));
  if (ctx.output.json) ctx.output.data({ key, value: parseValue(value) });
  else ctx.output.note(`set ${key} in .jp/config.toml`);
}
