import type { AttachmentHandler, HandlerContext } from '@jp/attachments';
import { AttachmentError, isJpError, type LoadedResource } from '@jp/core';
import { conversationUri, snapshotUri, turnUri } from '../mcp-serve/jp-uris.ts';
import { parseJpUri, type JpTarget } from './jp-uri.ts';

/** The canonical URI of a target, its id the full one. */
function canonical(target: JpTarget): string {
  if (target.kind === 'turn') return turnUri(target.id, target.turn);
  if (target.kind === 'snapshot') return snapshotUri(target.id, target.sha256);
  return conversationUri(target.id);
}

/** The conversation a target names, as this workspace knows it: a full id (a prefix completed), refused when it is not here or was removed. */
async function known(input: string, target: JpTarget, jpDir: string): Promise<JpTarget> {
  const { ConversationStore } = await import('../store/conversation-store.ts');
  const { removedAt } = await import('../store/conversation-activity.ts');
  const { splitConversationId } = await import('../store/conversation-branch-id.ts');
  const store = new ConversationStore(jpDir);
  let id: string;
  try {
    id = store.resolveId(target.id);
  } catch (error) {
    const why = isJpError(error) && error.code === 'ambiguous_conversation' ? error.message : `no conversation ${target.id} in this workspace (a conversation of another workspace is out of reach: attach its transcript from there, or export it)`;
    throw new AttachmentError(input, `cannot attach ${input}: ${why}`, { code: 'attachment_unknown_conversation' });
  }
  const removal = removedAt(jpDir, splitConversationId(id).base);
  if (removal !== undefined) throw new AttachmentError(input, `cannot attach ${input}: conversation ${id} was removed (jp conversation rm, ${removal})`, { code: 'attachment_removed_conversation' });
  return { ...target, id };
}

/** Reads what a target names, as the resource `jp mcp serve` would serve for its URI. */
async function read(input: string, target: JpTarget, ctx: HandlerContext, jpDir: string): Promise<LoadedResource> {
  const { ConversationReader } = await import('../mcp-serve/conversation-reader.ts');
  const { pathPrivacy } = await import('../mcp-serve/public-uri.ts');
  const { renderTranscript } = await import('../mcp-serve/render-transcript.ts');
  const { renderTurn } = await import('../mcp-serve/render-turn.ts');
  const { limitMcpResource } = await import('@jp/attachments');
  const reader = new ConversationReader(jpDir);
  const privacy = pathPrivacy(ctx.workspaceRoot);
  const uri = canonical(target);
  let resource: LoadedResource;
  try {
    const conversation = reader.read(target.id);
    const { metadata, turns } = conversation;
    const title = metadata.title === undefined ? undefined : privacy.text(metadata.title);
    const about = `jp conversation ${target.id}${title === undefined ? '' : ` (${title})`}`;
    if (target.kind === 'transcript') {
      resource = { uri, name: title ?? `conversation ${target.id}`, mimeType: 'text/markdown', description: `the transcript of ${about}, ${turns.length} turns`, text: renderTranscript(metadata, turns, privacy) };
    } else if (target.kind === 'turn') {
      const turn = turns[target.turn];
      if (turn === undefined) {
        const has = turns.length === 0 ? 'it has no turns' : `its turns are 0 to ${turns.length - 1}`;
        throw new AttachmentError(input, `cannot attach ${input}: conversation ${target.id} has no turn ${target.turn}; ${has}`, { code: 'attachment_unknown_turn' });
      }
      resource = { uri, name: `turn ${target.turn} of ${title ?? target.id}`, mimeType: 'text/markdown', description: `turn ${target.turn} of ${about}`, text: renderTurn(turn, { conversation: target.id, privacy, level: 1 }) };
    } else {
      const snapshot = reader.snapshot(conversation, target.sha256, uri, privacy.uri);
      const shown = privacy.uri(snapshot.resource.uri);
      const described = { uri, name: snapshot.resource.name ?? shown, ...(snapshot.resource.mimeType === undefined ? {} : { mimeType: snapshot.resource.mimeType }), description: `${shown} as attached at turn ${snapshot.turn} of ${about}` };
      resource = snapshot.resource.ref.encoding === 'text' ? { ...described, text: Buffer.from(snapshot.bytes).toString('utf8') } : { ...described, blob: snapshot.bytes };
    }
  } catch (error) {
    if (error instanceof AttachmentError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new AttachmentError(input, `cannot attach ${input}: ${message}`, { code: 'attachment_jp_read_failed', cause: error });
  }
  return limitMcpResource(resource, input, ctx);
}

/**
 * `jp://` attachments (RFD 033): a conversation of this workspace, one of its turns, or one of its
 * stored snapshots, as a resource of another conversation — the same markdown and bytes `jp mcp
 * serve` gives for the URI. It reads this workspace's store, so it lives in the app and is made
 * with the workspace's `.jp/`. `refresh_resource` reads it again (a transcript grows; a turn or a
 * snapshot never changes). Modules load only when one is resolved.
 */
export function createJpUriHandler(jpDir: string): AttachmentHandler {
  const resolveOne = async (declaration: string, ctx: HandlerContext) => {
    const target = await known(declaration, parseJpUri(declaration), jpDir);
    return read(declaration, target, ctx, jpDir);
  };
  return {
    schemes: ['jp'],
    async validate(input: string): Promise<string> {
      return canonical(await known(input, parseJpUri(input), jpDir));
    },
    async resolve(declarations: readonly string[], ctx: HandlerContext) {
      const resources: LoadedResource[] = [];
      for (const declaration of declarations) resources.push(await resolveOne(declaration, ctx));
      return resources;
    },
    refresh(uri: string, ctx: HandlerContext) {
      return resolveOne(uri, ctx);
    },
    covers(declaration: string, uri: string): boolean {
      return declaration.trim() === uri;
    },
  };
}
