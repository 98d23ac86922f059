import { mergeConfig, type ConfigLayer } from './merge-config.ts';

/** How one layer became another: the keys whose value is new or changed, and the keys now gone. */
export interface LayerChange {
  /** A partial layer: merged over the old one, it gives the new values. */
  changed: ConfigLayer;
  /** Keys the new layer no longer has, each as its path of key segments. */
  removed: string[][];
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** Values compared as data: tables by their keys in any order, arrays element by element. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  }
  if (isTable(a) || isTable(b)) {
    if (!isTable(a) || !isTable(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => Object.prototype.hasOwnProperty.call(b, key) && sameValue(a[key], b[key]));
  }
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  return a === b;
}

/** What changed from `before` to `after`, key by key (a table that became a value is one change). */
export function diffLayers(before: ConfigLayer, after: ConfigLayer): LayerChange {
  const removed: string[][] = [];
  const walk = (old: Record<string, unknown>, now: Record<string, unknown>, at: string[]): ConfigLayer => {
    const changed: ConfigLayer = {};
    for (const [key, value] of Object.entries(now)) {
      const previous = old[key];
      if (isTable(previous) && isTable(value)) {
        const inner = walk(previous, value, [...at, key]);
        if (Object.keys(inner).length > 0) changed[key] = inner;
      } else if (!Object.prototype.hasOwnProperty.call(old, key) || !sameValue(previous, value)) {
        changed[key] = value;
      }
    }
    for (const key of Object.keys(old)) if (!Object.prototype.hasOwnProperty.call(now, key)) removed.push([...at, key]);
    return changed;
  };
  const changed = walk(before, after, []);
  return { changed, removed };
}

export function isNoChange(change: LayerChange): boolean {
  return Object.keys(change.changed).length === 0 && change.removed.length === 0;
}

/** `layer` with the keys at these paths taken out (a path that is not there is ignored). */
export function withoutKeys(layer: ConfigLayer, paths: readonly (readonly string[])[]): ConfigLayer {
  const remove = (table: Record<string, unknown>, path: readonly string[]): Record<string, unknown> => {
    const [head, ...rest] = path;
    if (head === undefined || !Object.prototype.hasOwnProperty.call(table, head)) return table;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(table)) {
      if (key !== head) out[key] = value;
      else if (rest.length > 0) out[key] = isTable(value) ? remove(value, rest) : value;
    }
    return out;
  };
  return paths.reduce<ConfigLayer>((acc, path) => remove(acc, path), layer);
}

/** The layer a change leads to: its removed keys taken out, then its changed values merged in. */
export function applyChange(layer: ConfigLayer, change: LayerChange): ConfigLayer {
  return mergeConfig(withoutKeys(layer, change.removed), change.changed);
}
