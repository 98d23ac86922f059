import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConversationStore } from '../store/conversation-store.ts';
import type { CompletionCandidate } from './completion-candidate.ts';
import type { CompletionScope } from './completion-scope.ts';
import { isTable, readConfigTables, type Table } from './read-config-tables.ts';
import { isDeclarationTable } from '../config/attachment-declaration.ts';

/** The last `conversation.attachments` a layer sets, if it sets one. */
function attachmentsOf(layer: unknown): string[] | undefined {
  const list = isTable(layer) && isTable(layer.conversation) ? layer.conversation.attachments : undefined;
  if (!Array.isArray(list)) return undefined;
  // A declaration is a string or its table form (`{ url, refresh }`): the URL is what completes.
  return list.flatMap((item) => (typeof item === 'string' ? [item] : isDeclarationTable(item) ? [item.url] : []));
}

/**
 * The declarations of the conversation: the last list it set itself (`jp attachment add|rm`,
 * `--attach` store one as a config delta), else the config files' (RFD 001, configuration). Read
 * from events.jsonl line by line: only configuration deltas are parsed.
 */
export function completeAttachments(scope: CompletionScope): CompletionCandidate[] {
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
  declared ??= readConfigTables(scope.jpDir).map(attachmentsOf).reduce<string[] | undefined>((last, list) => list ?? last, undefined) ?? [];
  return declared.map((value, i) => ({ value, description: `#${i + 1}` }));
}
