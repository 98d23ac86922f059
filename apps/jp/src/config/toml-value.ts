import { formatKey } from './format-key.ts';

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** A value as a TOML inline value: `"text"`, `42`, `true`, `["a", "b"]`, `{ k = "v" }`. */
export function formatTomlValue(value: unknown): string {
  // JSON's string escapes (\", \\, \n, \uXXXX) are TOML's basic-string escapes.
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return Number.isNaN(value) ? 'nan' : value === Infinity ? 'inf' : value === -Infinity ? '-inf' : String(value);
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return `[${value.map(formatTomlValue).join(', ')}]`;
  if (isTable(value)) {
    const entries = Object.entries(value).map(([key, inner]) => `${formatKey([key])} = ${formatTomlValue(inner)}`);
    return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
  }
  return JSON.stringify(value) ?? '""';
}
