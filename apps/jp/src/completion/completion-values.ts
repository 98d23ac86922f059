import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { KNOWN_PROVIDERS } from '@jp/providers';
import { userConfigFile, workspaceConfigFile } from '../config/config-paths.ts';
import { ConversationStore } from '../store/conversation-store.ts';
import type { CompletionCandidate } from './completion-candidate.ts';

/*
 * The values completion offers, read straight from `.jp/` and the config files. Nothing here
 * validates (no schema is loaded) and nothing throws past `jp __complete`: a file that cannot be
 * read or parsed offers nothing, as if it were not there.
 */

export const DYNAMIC_KINDS = ['conversations', 'models', 'mcp-servers', 'attachments'] as const;
export type DynamicKind = (typeof DYNAMIC_KINDS)[number];

export interface CompletionScope {
  /** `.jp/` of the workspace, `undefined` outside one. */
  jpDir: string | undefined;
  /** The conversation named on the command line (`--id`), else the active one is used. */
  id?: string | undefined;
}

type Table = Record<string, unknown>;

function isTable(value: unknown): value is Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readToml(file: string): Table {
  try {
    return parseToml(readFileSync(file, 'utf8')) as Table;
  } catch {
    return {};
  }
}

/** The user's config file, then the workspace's: the order in which later ones win. */
function configFiles(scope: CompletionScope): Table[] {
  return [readToml(userConfigFile()), ...(scope.jpDir === undefined ? [] : [readToml(workspaceConfigFile(scope.jpDir))])];
}

/** Conversations, most recently active first, each with its title (or its turn count). */
function conversations(scope: CompletionScope): CompletionCandidate[] {
  if (scope.jpDir === undefined) return [];
  return new ConversationStore(scope.jpDir).list().map((m) => ({
    value: m.id,
    description: m.title ?? `${m.turnCount} turn${m.turnCount === 1 ? '' : 's'}, ${m.lastActivityAt.slice(0, 10)}`,
  }));
}

/**
 * The configured models first, then `echo` and each provider's prefix (`anthropic/`): jp keeps no
 * list of a provider's models, which change faster than jp is released.
 */
function models(scope: CompletionScope): CompletionCandidate[] {
  const configured = configFiles(scope)
    .reverse()
    .map((file) => (isTable(file.assistant) ? file.assistant.model : undefined))
    .filter((model): model is string => typeof model === 'string' && model !== '')
    .map((model) => ({ value: model, description: 'configured' }));
  const providers = KNOWN_PROVIDERS.map((provider) => (provider === 'echo' ? { value: 'echo', description: 'answers with what it was sent' } : { value: `${provider}/` }));
  const seen = new Set<string>();
  return [...configured, ...providers].filter((candidate) => !seen.has(candidate.value) && seen.add(candidate.value));
}

/** The servers configured as `[mcp.NAME]` in either config file, with their command. */
function mcpServers(scope: CompletionScope): CompletionCandidate[] {
  const servers = new Map<string, string | undefined>();
  for (const file of configFiles(scope)) {
    if (!isTable(file.mcp)) continue;
    for (const [name, server] of Object.entries(file.mcp)) {
      if (isTable(server)) servers.set(name, typeof server.command === 'string' ? server.command : servers.get(name));
    }
  }
  return [...servers].map(([value, command]) => ({ value, description: command }));
}

/** The last `conversation.attachments` a layer sets, if it sets one. */
function attachmentsOf(layer: unknown): string[] | undefined {
  const list = isTable(layer) && isTable(layer.conversation) ? layer.conversation.attachments : undefined;
  return Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : undefined;
}

/**
 * The declarations of the conversation: the last list it set itself (`jp attachment add|rm`,
 * `--attach` store one as a config delta), else the config files' (RFD 001, configuration). Read
 * from events.jsonl line by line: only configuration deltas are parsed.
 */
function attachments(scope: CompletionScope): CompletionCandidate[] {
  if (scope.jpDir === undefined) return [];
  const store = new ConversationStore(scope.jpDir);
  const named = scope.id ?? (process.env.JP_CONVERSATION || undefined);
  const resolved = named !== undefined ? store.resolveId(named) : store.activeId();
  if (resolved === undefined) return [];
  let declared: string[] | undefined;
  const events = readFileSync(path.join(store.dir(resolved), 'events.jsonl'), 'utf8');
  for (const line of events.split('\n')) {
    if (!line.includes('"config_delta"') || !line.includes('"attachments"')) continue;
    try {
      const event = JSON.parse(line) as Table;
      if (event.type === 'config_delta' && event.source !== 'files') declared = attachmentsOf(event.delta) ?? declared;
    } catch {
      // A damaged line is skipped, as `jp attachment ls` warns and goes on.
    }
  }
  declared ??= configFiles(scope).map(attachmentsOf).reduce<string[] | undefined>((last, list) => list ?? last, undefined) ?? [];
  return declared.map((value, i) => ({ value, description: `#${i + 1}` }));
}

export function completionValues(kind: DynamicKind, scope: CompletionScope): CompletionCandidate[] {
  switch (kind) {
    case 'conversations':
      return conversations(scope);
    case 'models':
      return models(scope);
    case 'mcp-servers':
      return mcpServers(scope);
    case 'attachments':
      return attachments(scope);
  }
}
