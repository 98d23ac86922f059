import path from 'node:path';
import { parseModelId, type ConfigDeltaEvent } from '@jp/core';
import { workspaceContext, type CommandContext } from '../cli/command-context.ts';
import { readGlobalOptions } from '../cli/global-options.ts';
import { reportError } from '../cli/report-error.ts';
import { guardStrayOutput } from '../cli/stray-output.ts';
import type { Config } from '../config/config-schema.ts';
import { fileLayers, readConfigFilesWith } from '../config/config-files.ts';
import { userCacheDir } from '../config/config-paths.ts';
import { knownConfig, layerKnownValid } from '../config/known-config.ts';
import { mergeLayers } from '../config/merge-config.ts';
import { flattenLayers, type SourcedLayer } from '../config/sourced-layer.ts';
import { useValidatedConfigCache } from '../config/validated-config-dir.ts';
import { chooseLine } from '../conversation/choose-line.ts';
import { conversationConfig, conversationLayers, filesRecord } from '../conversation/conversation-config.ts';
import { selectConversation } from '../conversation/select-conversation.ts';
import { editQuery, type EditedQuery, type EditQueryOptions } from '../editor/edit-query.ts';
import { splitConversationId } from '../store/conversation-branch-id.ts';
import { readStoredLines } from '../store/stored-lines.ts';
import { DEFAULT_KEY_ENV } from '../turn/provider-key-env.ts';
import type { EditorFirstQuery } from './editor-first-args.ts';
import { lastAnswer } from './last-answer.ts';

/*
 * The editor before the session (issue 45, RFD 023): `jp q` with no text on a terminal opens the
 * editor after reading only what its template shows — the config files, the conversation's stored
 * lines as JSON, its title — without commander, zod, the attachment registry or a provider. It
 * opens it only when it can tell that the CLI would have opened it on the same template: every
 * check the CLI makes before its editor either is made here the same way (the same functions) or
 * sends the query to the CLI unchanged (`undefined`), which then says what it always said. Once
 * the editor has run, the CLI takes the written query (`compose-query.ts`) and the turn goes on as
 * ever, opening the session with all of its checks.
 */

/** The query written with its draft, for the CLI to go on with; or, writing it failed, the exit code of the error reported. */
export type WrittenQuery = { edited: EditedQuery } | { exitCode: number };

/** A stored configuration delta of the shape `ConfigDeltaEventSchema` takes; anything else is left to the schema. */
function configDelta(json: Record<string, unknown>): ConfigDeltaEvent | undefined {
  const plain = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);
  const keys = (value: unknown) => Array.isArray(value) && value.length > 0 && value.every((part) => typeof part === 'string');
  if (typeof json.timestamp !== 'string' || !plain(json.delta)) return undefined;
  if (json.source !== undefined && json.source !== 'files') return undefined;
  if (json.removed !== undefined && !(Array.isArray(json.removed) && json.removed.every(keys))) return undefined;
  return json as unknown as ConfigDeltaEvent;
}

/** The stored lines as JSON objects and their configuration deltas; `undefined` when a line is not one the template can read without the schema. */
function storedEvents(ctx: CommandContext, id: string | undefined): { events: Record<string, unknown>[]; deltas: ConfigDeltaEvent[] } | undefined {
  if (id === undefined) return { events: [], deltas: [] };
  const file = path.join(ctx.store.dir(id), 'events.jsonl');
  const { lines, warnings } = readStoredLines(file, ctx.store.displayPath(id, 'events.jsonl'), splitConversationId(id).branch);
  // A warning is the CLI's to print, where it prints it.
  if (warnings.length > 0) return undefined;
  const events: Record<string, unknown>[] = [];
  const deltas: ConfigDeltaEvent[] = [];
  for (const { json } of lines) {
    if (typeof json !== 'object' || json === null || Array.isArray(json) || typeof (json as { type?: unknown }).type !== 'string') return undefined;
    const event = json as Record<string, unknown>;
    events.push(event);
    if (event.type !== 'config_delta') continue;
    const delta = configDelta(event);
    if (delta === undefined) return undefined;
    deltas.push(delta);
  }
  return { events, deltas };
}

/** Whether `selectProvider` would take this model: a known provider, and its key set where it needs one. */
function providerReady(config: Config, model: string): boolean {
  let provider: string;
  try {
    provider = parseModelId(model).provider;
  } catch {
    return false;
  }
  const keyEnv = config.providers[provider]?.api_key_env ?? DEFAULT_KEY_ENV[provider];
  return keyEnv === undefined || (process.env[keyEnv] ?? '') !== '';
}

/** The global options as the CLI reads them when none is given (the only case taken here). */
const globals = readGlobalOptions({});

const merged = (layers: readonly SourcedLayer[]) => mergeLayers(flattenLayers(layers).map((sourced) => sourced.layer));

/**
 * The editor's options as the CLI would give them (`read-invocation.ts`, then `compose-query.ts`
 * with its preview of `open-session.ts`, in their order), or `undefined` for the CLI to decide.
 */
function editorOptions(asked: EditorFirstQuery): EditQueryOptions | undefined {
  useValidatedConfigCache(userCacheDir());
  const ctx = workspaceContext(globals);
  const modelLayer = asked.model === undefined ? undefined : { assistant: { model: asked.model } };
  if (modelLayer !== undefined && !layerKnownValid(modelLayer)) return undefined;
  const parts: SourcedLayer[] = modelLayer === undefined ? [] : [{ source: 'invocation', label: '--model', layer: modelLayer }];
  const cli: SourcedLayer = { source: 'invocation', label: 'the command line', layer: mergeLayers(parts.map((part) => part.layer)), parts };
  let unchecked = false;
  const files = readConfigFilesWith(ctx.workspace.jpDir, (layer) => {
    unchecked ||= !layerKnownValid(layer);
    return layer;
  });
  if (unchecked) return undefined;
  const selected = asked.new ? undefined : selectConversation(ctx.store, asked.id, '', { orNew: true });
  const id = selected === undefined ? undefined : chooseLine(ctx.store.jpDir, selected, ctx.output).id;
  if (knownConfig(merged([...fileLayers(files), cli])) === undefined) return undefined;
  const metadata = id === undefined ? undefined : ctx.store.readableMetadata(id);
  const stored = storedEvents(ctx, id);
  if (stored === undefined) return undefined;
  const baseConfig = id === undefined ? filesRecord(files) : ctx.store.baseConfig(id);
  const config = knownConfig(merged([...conversationLayers(files, conversationConfig(id ?? 'new', baseConfig, stored.deltas, metadata)), cli]));
  // jp's own pick of a model, declared attachments and their notices: the CLI's template.
  if (config === undefined || config.assistant.model === undefined || config.conversation.attachments.length > 0) return undefined;
  if (!providerReady(config, config.assistant.model)) return undefined;
  return {
    jpDir: ctx.workspace.jpDir,
    workspaceRoot: ctx.workspace.root,
    conversationId: id,
    prefill: '',
    context: {
      conversation: id === undefined ? undefined : { id, title: metadata?.title },
      model: config.assistant.model,
      attachments: [],
      notices: [],
      lastAnswer: lastAnswer(stored.events as { type: string }[]),
    },
    env: process.env,
    configured: config.editor.command,
    note: (message) => ctx.output.note(message),
  };
}

/**
 * Opens the editor for `jp q` with no text when the template can be made without the session;
 * `undefined` (nothing done but what the CLI would do first) leaves the query to the CLI. A failure
 * of the editor or an empty query is reported here as the CLI reports it: this file is built on its
 * own (tsup.config.ts), and its error classes are not the CLI's.
 */
export async function editorFirst(asked: EditorFirstQuery): Promise<WrittenQuery | undefined> {
  guardStrayOutput();
  let options: EditQueryOptions | undefined;
  try {
    options = editorOptions(asked);
  } catch {
    // The CLI makes the same check and reports it as it always has.
    return undefined;
  }
  if (options === undefined) return undefined;
  try {
    return { edited: await editQuery(options) };
  } catch (failure) {
    return { exitCode: reportError(failure, globals) };
  }
}
