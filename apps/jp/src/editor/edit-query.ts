import path from 'node:path';
import { JpError } from '@jp/core';
import { chooseEditor, editorArgv } from './editor-command.ts';
import { QueryDraft } from './query-draft.ts';
import { queryFromTemplate, renderTemplate, type TemplateContext } from './query-template.ts';
import { runEditor } from './run-editor.ts';
import { readFileSync } from 'node:fs';

export interface EditQueryOptions {
  jpDir: string;
  /** Shown in messages instead of the absolute path. */
  workspaceRoot: string;
  /** The conversation the query goes to; `undefined` for a new one. */
  conversationId: string | undefined;
  /** Text the template starts with (`jp q -e TEXT`). */
  prefill: string;
  context: TemplateContext;
  env: NodeJS.ProcessEnv;
  /** `editor.command` from the config. */
  configured: string | undefined;
  /** One line for the user (stderr). */
  note: (message: string) => void;
}

/** A written query and the draft that keeps it until its turn is stored. */
export interface EditedQuery {
  query: string;
  draft: QueryDraft;
}

/**
 * Has the user write the query in their editor, git-commit style (`query-template.ts`), starting
 * from a kept draft when there is one. The draft is on disk before the editor opens and stays
 * there until the caller removes it: an editor that fails, an empty query or a failed turn loses
 * nothing. An empty query is an error (exit 1), as git treats an empty commit message.
 */
export async function editQuery(options: EditQueryOptions): Promise<EditedQuery> {
  const choice = chooseEditor(options.env, options.configured);
  const argv = editorArgv(choice, options.env);
  const draft = new QueryDraft(options.jpDir, options.conversationId);
  const shown = path.relative(options.workspaceRoot, draft.file);
  const kept = draft.read();
  let start = options.prefill.trim();
  if (kept !== undefined) {
    options.note(`starting from your unsent draft (${shown})`);
    start = start === '' || kept.includes(start) ? kept : `${kept}\n\n${start}`;
  }
  draft.write(renderTemplate(start, options.context));
  const keptHint = `your text is kept in ${shown} and the next editor starts from it`;
  await runEditor(argv, draft.file, choice, keptHint);
  const query = queryFromTemplate(readFileSync(draft.file, 'utf8'));
  if (query === '') {
    draft.remove();
    throw new JpError('aborting: the query is empty (write it above the scissors line)', { code: 'empty_query' });
  }
  // The draft keeps the query alone: the next template is made anew around it.
  draft.write(`${query}\n`);
  return { query, draft };
}
