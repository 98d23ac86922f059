import { UsageError } from '@jp/core';
import type { GlobalOptions } from '../cli/global-options.ts';
import { workspaceContext } from '../cli/command-context.ts';
import { pathPrivacy } from '../mcp-serve/public-uri.ts';
import { hitJson, pipeLines, terminalLines } from '../search/format-hits.ts';
import { searchConversations } from '../search/search-conversations.ts';
import { compilePattern } from '../search/search-pattern.ts';
import { parseScopes } from '../search/search-scope.ts';

export interface GrepOptions {
  regex?: boolean | undefined;
  ignoreCase?: boolean | undefined;
  word?: boolean | undefined;
  scope?: string[] | undefined;
  id?: string[] | undefined;
  context?: string | undefined;
  limit?: string | undefined;
}

function count(value: string | undefined, flag: string, least: number): number | undefined {
  if (value === undefined) return undefined;
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < least) throw new UsageError(`${flag} takes a whole number${least > 0 ? ` from ${least}` : ''}, not ${JSON.stringify(value)}`, { code: 'usage_error' });
  return n;
}

/**
 * `jp conversation grep PATTERN`: every line of every conversation that matches, with the
 * coordinate `ID:TURN:SCOPE` the other commands take (RFD 033). Exit 0 when something matched, 1
 * when nothing did (as grep), 2 for a bad pattern or option.
 */
export async function conversationGrep(globals: GlobalOptions, pattern: string, options: GrepOptions): Promise<void> {
  const compiled = compilePattern({ pattern, regex: options.regex, ignoreCase: options.ignoreCase, word: options.word });
  const scopes = parseScopes(options.scope);
  const context = count(options.context, '--context', 0) ?? 0;
  // Under --quiet the exit status is the whole answer: the first hit settles it.
  const given = count(options.limit, '--limit', 1);
  const limit = globals.quiet && globals.format !== 'json' ? 1 : given;
  const ctx = workspaceContext(globals);
  const { output, store } = ctx;
  const ids = options.id === undefined || options.id.length === 0 ? undefined : [...new Set(options.id.map((id) => store.resolveId(id)))];
  const showUri = pathPrivacy(ctx.workspace.root).uri;
  const terminal = process.stdout.isTTY === true && !output.json;
  let first = true;
  const outcome = searchConversations(
    ctx.workspace.jpDir,
    { pattern: compiled, scopes, ids, context, limit },
    (found) => {
      if (output.json) for (const hit of found.hits) output.data(hitJson(hit, context));
      else if (globals.quiet) return;
      else if (terminal) {
        if (!first) output.line();
        for (const spans of terminalLines(found, showUri, context, output.stdoutColumns)) output.line(...spans);
      } else for (const line of pipeLines(found, showUri, context, !first)) output.line(line);
      first = false;
    },
    { warn: (message) => output.warn(message) },
  );
  if (outcome.truncated) output.note(`jp: stopped at ${outcome.hits} hits (--limit); there may be more`);
  // As grep: no match is not an error, but the exit status says so.
  if (outcome.hits === 0) process.exitCode = 1;
}
