import { fileLayers, readConfigFilesWith, type ConfigFiles } from './config-files.ts';
import { mergeLayers, type ConfigLayer } from './merge-config.ts';
import { cfgArgSplit, parseCfgArg } from './parse-cfg-arg.ts';
import { withoutSecrets } from './secret-fields.ts';
import type { SourcedLayer } from './sourced-layer.ts';
import { checkLayer } from './validate-config.ts';

export { checkLayer, resolveConfig } from './validate-config.ts';
// Where the files are is its own module, so that reading them without validating (completion) loads no schema.
export { userConfigFile, workspaceConfigFile } from './config-paths.ts';
export { fileLayers, parseConfigText, readConfigText, WORKSPACE_CONFIG_LABEL, type ConfigFiles } from './config-files.ts';

/** The two configuration files, each checked on its own (`checkLayer`). */
export function readConfigFiles(jpDir: string | undefined): ConfigFiles {
  return readConfigFilesWith(jpDir, checkLayer);
}

export function readFileLayers(jpDir: string | undefined): SourcedLayer[] {
  return fileLayers(readConfigFiles(jpDir));
}

/** `-c KEY=VALUE` as errors quote it: a secret field's value is left out (`-c "KEY=…"`). */
function cfgArgSource(arg: string, layer: ConfigLayer): string {
  return withoutSecrets(layer).removed.length > 0 ? `-c "${arg.slice(0, cfgArgSplit(arg))}=…"` : `-c "${arg}"`;
}

/**
 * The `-c` arguments of one command as one layer, each checked on its own and named in errors.
 * Several on one table merge: `-c mcp.x.args=[…] -c mcp.x.cwd=…`.
 */
export function readCfgArgs(args: readonly string[]): SourcedLayer {
  const parts: SourcedLayer[] = args.map((arg) => {
    const layer = parseCfgArg(arg);
    const label = cfgArgSource(arg, layer);
    return { source: 'invocation', label, layer: checkLayer(layer, label) };
  });
  return { source: 'invocation', label: '-c', layer: mergeLayers(parts.map((part) => part.layer)), parts };
}
