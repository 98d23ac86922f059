import { readFileSync } from 'node:fs';

/**
 * `metadata.json` of a conversation. Read without zod on purpose: `jp conversation ls` reads only
 * these files, and must not pay for loading the schema library.
 */
export interface ConversationMetadata {
  id: string;
  title?: string | undefined;
  createdAt: string;
  lastActivityAt: string;
  turnCount: number;
  forkedFrom?: { id: string; turn: number | null } | undefined;
  /** How base-config.json and the config deltas are read (`CONFIG_VERSION`); absent: written by an earlier jp. */
  configVersion?: number | undefined;
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}

export function parseMetadata(id: string, text: string): ConversationMetadata | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof json !== 'object' || json === null) return undefined;
  const raw = json as Record<string, unknown>;
  if (!isString(raw.createdAt)) return undefined;
  const forked = raw.forkedFrom as Record<string, unknown> | undefined;
  return {
    id,
    title: isString(raw.title) ? raw.title : undefined,
    createdAt: raw.createdAt,
    lastActivityAt: isString(raw.lastActivityAt) ? raw.lastActivityAt : raw.createdAt,
    turnCount: typeof raw.turnCount === 'number' && raw.turnCount >= 0 ? raw.turnCount : 0,
    forkedFrom:
      forked && isString(forked.id)
        ? { id: forked.id, turn: typeof forked.turn === 'number' ? forked.turn : null }
        : undefined,
    configVersion: typeof raw.configVersion === 'number' ? raw.configVersion : undefined,
  };
}

export function readMetadata(id: string, file: string): ConversationMetadata | undefined {
  try {
    return parseMetadata(id, readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

export function serializeMetadata(metadata: ConversationMetadata): string {
  const { id: _id, ...rest } = metadata;
  return `${JSON.stringify(rest, null, 2)}\n`;
}
