/** A partial configuration as written in a file, a `-c` or a conversation delta. */
export type ConfigLayer = Record<string, unknown>;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Deep merge: objects merge key by key, everything else (arrays included) is replaced. */
export function mergeConfig(base: ConfigLayer, over: ConfigLayer): ConfigLayer {
  const out: ConfigLayer = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] = isPlainObject(current) && isPlainObject(value) ? mergeConfig(current, value) : value;
  }
  return out;
}

export function mergeLayers(layers: readonly ConfigLayer[]): ConfigLayer {
  return layers.reduce<ConfigLayer>((acc, layer) => mergeConfig(acc, layer), {});
}

/** `setPath({}, ['a','b'], 1)` → `{a:{b:1}}`. */
export function layerFromPath(segments: readonly string[], value: unknown): ConfigLayer {
  let layer: unknown = value;
  for (let i = segments.length - 1; i >= 0; i--) layer = { [segments[i]!]: layer };
  return layer as ConfigLayer;
}

export function getPath(layer: ConfigLayer, segments: readonly string[]): unknown {
  let current: unknown = layer;
  for (const segment of segments) {
    if (!isPlainObject(current)) return undefined;
    current = current[segment];
  }
  return current;
}
