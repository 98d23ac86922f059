import type { CompletionCandidate } from './completion-candidate.ts';
import type { CompletionScope } from './completion-scope.ts';
import { completeConversations } from './complete-conversations.ts';

/*
 * The values completion offers when Tab is pressed, read straight from `.jp/` and the config
 * files. Each kind is its own module, and those that read config (with the TOML parser) load
 * only when asked for; conversations, the kind asked for most, come with this module. Nothing
 * here loads a schema.
 */

export const DYNAMIC_KINDS = ['conversations', 'models', 'mcp-servers', 'attachments', 'jp-uris'] as const;
export type DynamicKind = (typeof DYNAMIC_KINDS)[number];

export function isDynamicKind(kind: string | undefined): kind is DynamicKind {
  return (DYNAMIC_KINDS as readonly string[]).includes(kind ?? '');
}

export async function completionValues(kind: DynamicKind, scope: CompletionScope): Promise<CompletionCandidate[]> {
  switch (kind) {
    case 'conversations':
      return completeConversations(scope);
    case 'models':
      return (await import('./complete-models.ts')).completeModels(scope);
    case 'mcp-servers':
      return (await import('./complete-mcp-servers.ts')).completeMcpServers(scope);
    case 'attachments':
      return (await import('./complete-attachments.ts')).completeAttachments(scope);
    case 'jp-uris':
      return (await import('./complete-jp-uris.ts')).completeJpUris(scope);
  }
}
