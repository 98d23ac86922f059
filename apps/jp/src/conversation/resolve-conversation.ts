import { UsageError, type JpError } from '@jp/core';
import type { ConversationStore } from '../store/conversation-store.ts';
import { visibleText } from '../output/terminal-text.ts';

/**
 * A conversation as the user names it to `jp c use|show|fork|rm`: an id or an unambiguous id
 * prefix first, then a title as `jp c ls` prints it (issue W): the one titled exactly so, else the
 * one whose title starts so (letter case aside). Several such titles are a usage error listing them.
 */
export function resolveConversation(store: ConversationStore, input: string): string {
  try {
    return store.resolveId(input);
  } catch (error) {
    if ((error as JpError).code !== 'unknown_conversation' || input.trim() === '') throw error;
    // Looked up without writing anything: a name that matches nothing leaves the workspace as it was.
    const titled = store.list({ save: false }).filter((metadata) => metadata.title !== undefined && metadata.title !== '');
    const exact = titled.filter((metadata) => metadata.title === input);
    const wanted = input.toLowerCase();
    const matches = exact.length > 0 ? exact : titled.filter((metadata) => metadata.title!.toLowerCase().startsWith(wanted));
    if (matches.length === 1) return matches[0]!.id;
    if (matches.length === 0) {
      throw new UsageError(`no conversation ${input} in this workspace, by id or title; \`jp conversation ls\` lists them`, { code: 'unknown_conversation' });
    }
    const shown = matches.slice(0, 5).map((metadata) => `${metadata.id} "${visibleText(metadata.title!)}"`);
    const more = matches.length > 5 ? `, and ${matches.length - 5} more` : '';
    throw new UsageError(`${matches.length} conversations have a title starting "${input}": ${shown.join(', ')}${more}; give the id`, { code: 'ambiguous_conversation' });
  }
}
