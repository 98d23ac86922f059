import { AttachmentError, UsageError } from '@jp/core/errors';
import type { GlobalOptions } from '../cli/global-options.ts';
import { workspaceContext, type CommandContext } from '../cli/command-context.ts';
import { readCfgArgs, resolveConfig } from '../config/load-config.ts';
import type { Config } from '../config/config-schema.ts';
import { conversationLayers } from '../conversation/conversation-config.ts';
import { selectConversation } from '../conversation/select-conversation.ts';
import { closeMcpClients } from '../mcp/mcp-client-pool.ts';
import { createAttachmentRegistry, handlerContext } from '../resolution/attachment-runtime.ts';
import { isSnapshotOnly } from '../resolution/resolve-turn-attachments.ts';

interface Selected {
  ctx: CommandContext;
  id: string;
  config: Config;
}

async function load(globals: GlobalOptions, idOption: string | undefined): Promise<Selected> {
  const ctx = workspaceContext(globals);
  const id = selectConversation(ctx.store, idOption, 'pass --id, or start a conversation with `jp query --new`');
  const loaded = await ctx.store.events(id);
  for (const warning of loaded.warnings) ctx.output.warn(warning);
  const config = resolveConfig([...conversationLayers(ctx.store.baseConfig(id), loaded.events), readCfgArgs(globals.cfg)]);
  return { ctx, id, config };
}

/** Records a new list of declarations as a config delta, under the conversation's lock. */
async function recordDeclarations(selected: Selected, attachments: string[]): Promise<void> {
  const { store } = selected.ctx;
  const release = await store.lock(selected.id, selected.config.conversation.lock_timeout_secs * 1000);
  try {
    const timestamp = new Date().toISOString();
    await store.append(selected.id, [{ type: 'config_delta', timestamp, delta: { conversation: { attachments } } }]);
    const metadata = store.metadata(selected.id);
    store.writeMetadata({ ...metadata, lastActivityAt: timestamp });
  } finally {
    release();
  }
}

export async function attachmentAdd(globals: GlobalOptions, urls: string[], options: { id?: string }): Promise<void> {
  const selected = await load(globals, options.id);
  const { ctx, config } = selected;
  const registry = createAttachmentRegistry();
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
      if (!declared.includes(declaration)) {
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

export async function attachmentLs(globals: GlobalOptions, options: { id?: string }): Promise<void> {
  const { ctx, id, config } = await load(globals, options.id);
  const attachments = config.conversation.attachments;
  if (ctx.output.json) {
    ctx.output.data({ conversation: id, attachments: attachments.map((url, i) => ({ index: i + 1, url })) });
    return;
  }
  if (attachments.length === 0) ctx.output.note('no attachments declared');
  attachments.forEach((url, i) => ctx.output.line(`${String(i + 1).padStart(3)}  ${url}`));
}

export async function attachmentRm(globals: GlobalOptions, targets: string[], options: { id?: string }): Promise<void> {
  const selected = await load(globals, options.id);
  const { ctx, config } = selected;
  const declared = config.conversation.attachments;
  const registry = createAttachmentRegistry();
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
  const remaining = declared.filter((declaration) => !removed.has(declaration));
  await recordDeclarations(selected, remaining);
  if (ctx.output.json) ctx.output.data({ conversation: selected.id, removed: [...removed], attachments: remaining });
  else for (const declaration of removed) ctx.output.line(`removed ${declaration} (snapshots already in the conversation stay)`);
}
