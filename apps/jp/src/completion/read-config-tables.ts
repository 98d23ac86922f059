import { readFileSync } from 'node:fs';
import { parse as parseToml } from 'smol-toml';
import { userConfigFile, workspaceConfigFile } from '../config/config-paths.ts';

export type Table = Record<string, unknown>;

export function isTable(value: unknown): value is Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readToml(file: string): Table {
  try {
    return parseToml(readFileSync(file, 'utf8')) as Table;
  } catch {
    return {};
  }
}

/**
 * The user's config file, then the workspace's (later ones win), as parsed: completion reads
 * them without validating (no schema is loaded), and a file it cannot read or parse is empty.
 */
export function readConfigTables(jpDir: string | undefined): Table[] {
  return [readToml(userConfigFile()), ...(jpDir === undefined ? [] : [readToml(workspaceConfigFile(jpDir))])];
}
