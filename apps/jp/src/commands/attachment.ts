import { AttachmentError, UsageError, type ConversationEvent } from '@jp/core';
import type { GlobalOptions } from '../cli/global-options.ts';
import { workspaceContext, type CommandContext } from '../cli/command-context.ts';
import { readCfgArgs, readConfigFiles, resolveConfig } from '../config/load-config.ts';
import type { Config } from '../config/config-schema.ts';
import { conversationConfig, conversationLayers } from '../conversation/conversation-config.ts';
import { selectConversation } from '../conversation/select-conversation.ts';
import { closeMcpClients } from '../mcp/mcp-client-pool.ts';
import { createAttachmentRegistry, handlerContext } from '../resolution/attachment-runtime.ts';
import { isSnapshotOnly } from '../resolution/resolve-turn-attachments.ts';
import { checkAll, type FreshnessCheck } from '../resolution/check-freshness.ts';
import { declarationsEver, originsByUri } from '../resolution/refreshable.ts';
import { mcpServerOfTool } from '../tools/mcp-tool-name.ts';
import type { SnapshotSummary } from '../store/scan-events-file.ts';
import type { Span } from '../output/output.ts';
import type { Styles } from '../output/styles.ts';
import { declarationUrl, declarationUrls, type AttachmentDeclaration } from '../config/attachment-declaration.ts';
import { conversationWaitNotice } from '../store/lock-wait-notice.ts';

interface Selected {
  ctx: CommandContext;
  id: string;
  config: Config;
  /** Every resource snapshot of the stream, in order, known from events.jsonl alone. */
  snapshots: SnapshotSummary[];
  /** The configuration deltas of the stream (which declarations it has had). */
  configEvents: ConversationEvent[];
}

/** The conversation's configuration and snapshots, without reading a single blob. */
async function load(globals: GlobalOptions, idOption: string | undefined): Promise<Selected> {
  const ctx = workspaceContext(globals);
  const id = selectConversation(ctx.store, idOption, 'pass --id, or start a conversation with `jp query --new`');
  const scanned = await ctx.store.scan(id);
  for (const warning of scanned.warnings) ctx.output.warn(warning);
  const stored = conversationConfig(id, ctx.store.baseConfig(id), scanned.configEvents, ctx.store.readableMetadata(id));
  const config = resolveConfig([...conversationLayers(readConfigFiles(ctx.workspace.jpDir), stored), readCfgArgs(globals.cfg)]);
  return { ctx, id, config, snapshots: scanned.snapshots, configEvents: scanned.configEvents };
}

/** Records a new list of declarations as a config delta (a key the conversation set), under the conversation's lock. */
async function recordDeclarations(selected: Selected, attachments: AttachmentDeclaration[]): Promise<void> {
  const { store } = selected.ctx;
  const timeoutMs = selected.config.conversation.lock_timeout_secs * 1000;
  const release = await store.lock(selected.id, timeoutMs, conversationWaitNotice(selected.ctx, selected.id, timeoutMs));
  try {
    const timestamp = new Date().toISOString();
    const delta = { type: 'config_delta' as const, timestamp, delta: { conversation: { attachments } } };
    await store.append(selected.id, [delta], store.openContent());
  } finally {
    release();
  }
}

export async function attachmentAdd(globals: GlobalOptions, urls: string[], options: { id?: string }): Promise<void> {
  const selected = await load(globals, options.id);
  const { ctx, config } = selected;
  const registry = createAttachmentRegistry(ctx.workspace.jpDir);
  const hctx = handlerContext(ctx.workspace, ctx.cwd, config, ctx.output);
  const declared = [...config.conversation.attachments];
  const added: string[] = [];
  try {
    for (const url of urls) {
      const declaration = await registry.validate(url, hctx);
      if (isSnapshotOnly(declaration)) {
        throw new AttachmentError(
          url,
          `${url} is outside the workspace: jp never stores its path, so it cannot be declared for later; attach it to a query with --attach`,
          { code: 'attachment_external_declaration' },
        );
      }
      if (!declarationUrls(declared).includes(declaration)) {
        declared.push(declaration);
        added.push(declaration);
      }
    }
  } finally {
    await closeMcpClients(hctx.mcp);
  }
  if (added.length > 0) await recordDeclarations(selected, declared);
  if (ctx.output.json) ctx.output.data({ conversation: selected.id, added, attachments: declared });
  else if (added.length === 0) ctx.output.note('nothing added: already declared');
  else for (const declaration of added) ctx.output.line(`added ${declaration} (resolved into the next query)`);
}

/** One resource in `attachment ls`: its newest snapshot, and with --check how it compares with its source. */
interface ListedResource {
  uri: string;
  name?: string | undefined;
  turn: number;
  size: number;
  sha256: string;
  status?: FreshnessCheck['status'];
  error?: string | undefined;
}

/** The newest snapshot of each URI, in order of first appearance (a Map keeps a key where it was first set). */
function newestByUri(snapshots: readonly SnapshotSummary[]): SnapshotSummary[] {
  const newest = new Map<string, SnapshotSummary>();
  for (const snapshot of snapshots) newest.set(snapshot.uri, snapshot);
  return [...newest.values()];
}

function listed(snapshot: SnapshotSummary): ListedResource {
  return { uri: snapshot.uri, ...(snapshot.name === undefined ? {} : { name: snapshot.name }), turn: snapshot.turn, size: snapshot.size, sha256: snapshot.sha256 };
}

/** How `--check` states are painted: fresh as good, changed as a caution, missing and errors as bad. */
const STATUS_STYLE: Record<FreshnessCheck['status'], keyof Styles> = {
  fresh: 'good',
  changed: 'caution',
  missing: 'bad',
  error: 'bad',
  'not-refreshable': 'dim',
};

function humanSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * `jp attachment ls [--check]`: each declaration with the newest snapshot of every resource it
 * covers (turn, size, sha256), then snapshots no declaration covers (stdin, removed declarations).
 * Everything comes from events.jsonl: no blob is read. `--check` re-reads each source and says
 * whether the snapshot is fresh, changed, missing or not refreshable.
 */
export async function attachmentLs(globals: GlobalOptions, options: { id?: string; check?: boolean }): Promise<void> {
  const { ctx, id, config, snapshots, configEvents } = await load(globals, options.id);
  const declarations = declarationUrls(config.conversation.attachments);
  const registry = createAttachmentRegistry(ctx.workspace.jpDir);
  const hctx = handlerContext(ctx.workspace, ctx.cwd, config, ctx.output);
  try {
    const newest = newestByUri(snapshots);
    const covered = new Set<string>();
    const groups = declarations.map((url, i) => {
      const resources = newest.filter((snapshot) => registry.covers(url, snapshot.uri, hctx)).map(listed);
      for (const resource of resources) covered.add(resource.uri);
      return { index: i + 1, url, resources };
    });
    const undeclared = newest.filter((snapshot) => !covered.has(snapshot.uri)).map(listed);
    if (options.check) {
      const all = [...groups.flatMap((group) => group.resources), ...undeclared];
      const evidence = {
        workspaceRoot: ctx.workspace.root,
        // A tool result whose request is missing is still a tool's, never the user's.
        origins: originsByUri(snapshots.map(({ uri, toolCallId, tool }) => ({ uri, tool: toolCallId === undefined ? undefined : (tool ?? '') }))),
        declarations: declarationsEver(declarations, configEvents),
        covers: (declaration: string, uri: string) => registry.covers(declaration, uri, hctx),
        mcpServerOfTool: (tool: string) => mcpServerOfTool(tool, config),
      };
      const checks = await checkAll(all, { registry, handlerContext: hctx, evidence });
      // The listed sha256 stays the snapshot's; only the verdict is added.
      all.forEach((resource, i) => {
        const { status, error } = checks[i]!;
        Object.assign(resource, { status, ...(error === undefined ? {} : { error }) });
      });
    }
    if (ctx.output.json) {
      ctx.output.data({ conversation: id, attachments: groups, undeclared });
      return;
    }
    if (declarations.length === 0) ctx.output.note('no attachments declared');
    const row = (resource: ListedResource): Span[] => [
      ['dim', `       turn ${String(resource.turn).padStart(3)}  ${humanSize(resource.size).padStart(10)}  ${resource.sha256.slice(0, 12)}`],
      `  ${resource.name ?? resource.uri}`,
      ...(resource.status === undefined ? [] : (['  ', [STATUS_STYLE[resource.status], resource.status]] as Span[])),
      ...(resource.error === undefined ? [] : ([['dim', ` (${resource.error})`]] as Span[])),
    ];
    for (const group of groups) {
      ctx.output.line(['dim', String(group.index).padStart(3)], '  ', ['heading', group.url]);
      if (group.resources.length === 0) ctx.output.line(['dim', '       (not in the conversation yet: resolved at the next query)']);
      for (const resource of group.resources) ctx.output.line(...row(resource));
    }
    if (undeclared.length > 0) {
      ctx.output.line(['dim', '  -  '], ['heading', 'not declared (snapshots in the conversation)']);
      for (const resource of undeclared) ctx.output.line(...row(resource));
    }
  } finally {
    await closeMcpClients(hctx.mcp);
  }
}

export async function attachmentRm(globals: GlobalOptions, targets: string[], options: { id?: string }): Promise<void> {
  const selected = await load(globals, options.id);
  const { ctx, config } = selected;
  // A declaration in its table form (`{ url, refresh }`) is named by its URL, and kept whole.
  const entries = config.conversation.attachments;
  const declared = declarationUrls(entries);
  const registry = createAttachmentRegistry(ctx.workspace.jpDir);
  const hctx = handlerContext(ctx.workspace, ctx.cwd, config, ctx.output);
  const removed = new Set<string>();
  for (const target of targets) {
    if (declared.includes(target)) {
      removed.add(target);
      continue;
    }
    if (/^\d+$/.test(target)) {
      const declaration = declared[Number(target) - 1];
      if (declaration !== undefined) {
        removed.add(declaration);
        continue;
      }
    }
    // The same input `add` was given normalises to the same declaration (when it still validates).
    const normalised = await registry.validate(target, hctx).catch(() => undefined);
    if (normalised !== undefined && declared.includes(normalised)) {
      removed.add(normalised);
      continue;
    }
    throw new UsageError(`${target} is not a declared attachment; \`jp attachment ls\` lists them`, { code: 'unknown_attachment' });
  }
  const remaining = entries.filter((entry) => !removed.has(declarationUrl(entry)));
  await recordDeclarations(selected, remaining);
  if (ctx.output.json) ctx.output.data({ conversation: selected.id, removed: [...removed], attachments: remaining });
  else for (const declaration of removed) ctx.output.line(`removed ${declaration} (snapshots already in the conversation stay)`);
}
