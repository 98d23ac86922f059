import type { ConfigLayer } from './merge-config.ts';

/** Where a configuration value comes from, lowest precedence first; `default` is the schema's. */
export type ConfigSource = 'default' | 'user' | 'workspace' | 'conversation' | 'invocation';

/**
 * One layer of configuration and where it came from. `label` names it in errors: the file's path,
 * `-c "KEY=VALUE"`, `--model`, `conversation ID`.
 */
export interface SourcedLayer {
  source: Exclude<ConfigSource, 'default'>;
  label: string;
  layer: ConfigLayer;
  /** A layer made of several (the `-c` of one command), each named on its own in errors. */
  parts?: readonly SourcedLayer[] | undefined;
}

/** The layers one by one, a layer made of parts replaced by its parts. */
export function flattenLayers(layers: readonly SourcedLayer[]): SourcedLayer[] {
  return layers.flatMap((layer) => (layer.parts === undefined ? [layer] : flattenLayers(layer.parts)));
}
