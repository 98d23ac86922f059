import { readFileSync } from 'node:fs';
import { parse as parseToml, stringify as stringifyToml } from 'smol-toml';
import type { GlobalOptions } from '../cli/global-options.ts';
import { workspaceContext } from '../cli/command-context.ts';
import { readCfgArgs, readFileLayers, resolveConfig, validateLayer, workspaceConfigFile } from '../config/load-config.ts';
import { layerFromPath, mergeConfig, type ConfigLayer } from '../config/merge-config.ts';
import { parseKey, parseValue } from '../config/parse-cfg-arg.ts';
import { conversationLayers } from '../conversation/conversation-config.ts';
import { writeFileAtomic } from '../store/atomic-write.ts';

export async function configShow(globals: GlobalOptions, options: { id?: string }): Promise<void> {
  const ctx = workspaceContext(globals);
  const cli = readCfgArgs(globals.cfg);
  let layers: ConfigLayer[];
  if (options.id !== undefined) {
    const id = ctx.store.resolveId(options.id);
    layers = conversationLayers(ctx.store.baseConfig(id), (await ctx.store.scan(id)).configEvents);
  } else {
    layers = readFileLayers(ctx.workspace.jpDir);
  }
  const config = resolveConfig([...layers, cli]);
  if (ctx.output.json) ctx.output.data(config);
  else ctx.output.write(stringifyToml(config as Record<string, unknown>) + '\n');
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
  const next = mergeConfig(current, layerFromPath(segments, parseValue(value)));
  validateLayer(next, `jp config set ${key}`);
  writeFileAtomic(file, stringifyToml(next));
  if (ctx.output.json) ctx.output.data({ key, value: parseValue(value) });
  else ctx.output.note(`set ${key} in .jp/config.toml`);
}
