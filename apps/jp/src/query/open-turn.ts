import { randomBytes } from 'node:crypto';
import { decideSuperseded, lastActivityAt, type ChatRequestEvent, type ConversationEvent, type Resource } from '@jp/core';
import { now } from '../clock.ts';
import { diffLayers } from '../config/diff-layers.ts';
import { mergeConfig, type ConfigLayer } from '../config/merge-config.ts';
import { filesDelta, ownLayer } from '../conversation/conversation-config.ts';
import { resolveProgress } from '../output/terminal-progress.ts';
import { planTurnAttachments, resolvePlan, urisInStream } from '../resolution/resolve-turn-attachments.ts';
import type { QuerySession } from './open-session.ts';
import { stdinResource } from './stdin-resource.ts';
import { supersededTtlSecs } from './superseded-ttl.ts';
import { declarationRefresh, declarationUrl, declarationUrls } from '../config/attachment-declaration.ts';
import { freshnessNotices } from '../resolution/check-declared-freshness.ts';
import { terminalAskOversize } from '../output/ask-oversize.ts';

/** The events that open this turn: its start, a config delta if any, and the user's request with its resources. */
export interface TurnOpening {
  /** The turn's number (0-based). */
  index: number;
  events: ConversationEvent[];
  request: ChatRequestEvent;
}

/**
 * What the conversation records of this invocation: the keys `--model` and `--reasoning` set that
 * the conversation had not set to the same value already; they carry on for it (RFD 014). A `-c`
 * serves this command only and is never stored.
 */
function storableLayer(session: QuerySession): ConfigLayer {
  return diffLayers(ownLayer(session.conversation), session.invocation.stored).changed;
}

/** `--tool`/`--no-tool` of this turn, as its `turn_start` records them; `undefined` without either. */
function turnTools(options: QuerySession['invocation']['options']): { only?: string[]; without?: string[] } | undefined {
  const only = options.tool ?? [];
  const without = options.noTool ?? [];
  if (only.length === 0 && without.length === 0) return undefined;
  return { ...(only.length > 0 ? { only } : {}), ...(without.length > 0 ? { without } : {}) };
}

/**
 * Resolves this turn's attachments (ARCHITECTURE §4: this invocation's `--attach`, then
 * declarations the stream has not seen) and opens the turn with them. Their content is staged:
 * the request refers to it by digest. Any failure to resolve fails the query before anything is
 * sent or stored.
 */
export async function openTurn(session: QuerySession): Promise<TurnOpening> {
  const { ctx, invocation, history, config, registry, handlerContext: hctx, content } = session;
  const attached: string[] = [];
  for (const input of invocation.options.attach) if (input !== '-') attached.push(await registry.validate(input, hctx));
  const plan = planTurnAttachments({
    declared: declarationUrls(config.conversation.attachments),
    attached,
    streamUris: urisInStream(history),
    covers: (declaration, uri) => registry.covers(declaration, uri, hctx),
  });
  for (const declaration of plan.snapshotOnly) {
    ctx.output.warn(`${declaration} is a snapshot of a file outside the workspace and cannot be read again; attach the file again with --attach PATH`);
  }
  const progress = resolveProgress(ctx.output);
  let resources: Resource[];
  try {
    const askOversize = terminalAskOversize(progress);
    const resolving = resolvePlan(registry, plan, { ...hctx, progress, askOversize });
    // The modules that store the turn load while the attachments resolve.
    if (invocation.persist) ctx.store.preloadWriting();
    resources = await resolving;
    if (invocation.stdin !== undefined) resources.push(await stdinResource(invocation.stdin, { limits: hctx.limits, askOversize }));
  } finally {
    progress?.done();
  }

  const at = now();
  const timestamp = at.toISOString();
  // How the workspace file changed since this conversation's last turn: a record, not a key it set.
  const files = invocation.id === undefined ? undefined : filesDelta(session.conversation, invocation.files, timestamp);
  let delta: ConfigLayer = storableLayer(session);
  if (plan.newDeclarations.length > 0) {
    delta = mergeConfig(delta, { conversation: { attachments: [...config.conversation.attachments, ...plan.newDeclarations] } });
  }
  // Only a turn of an existing conversation can find a declared file changed since its snapshot.
  const notices = history.length === 0 ? [] : await freshnessNotices({
    history,
    declarations: config.conversation.attachments.map((declaration) => ({
      url: declarationUrl(declaration),
      refresh: declarationRefresh(declaration, config.conversation.attachment.refresh),
    })),
    attachedNow: new Set(resources.map((resource) => resource.uri)),
    config,
    registry,
    hctx,
  });
  // What the model is told about changed files, the user sees too (one dim line each on stderr).
  for (const notice of notices) ctx.output.note(`notice: ${notice.text}`, { dim: true });
  const tools = turnTools(invocation.options);
  const request: ChatRequestEvent = {
    type: 'chat_request',
    timestamp,
    content: invocation.query,
    resources: resources.map((resource) => content.stage(resource)),
    ...(notices.length > 0 ? { notices } : {}),
    ...(invocation.schema ? { schema: invocation.schema } : {}),
  };
  const opening: ConversationEvent[] = [
    { type: 'turn_start', timestamp, id: randomBytes(6).toString('hex'), parent: parentTurn(history), model: config.assistant.model!, ...(tools === undefined ? {} : { tools }) },
    ...(files === undefined ? [] : [files]),
    ...(Object.keys(delta).length > 0 ? [{ type: 'config_delta' as const, timestamp, delta }] : []),
  ];
  // Older snapshots this request starts sending as stubs (RFD 020), recorded with it so every later
  // request, --explain and a fork stub them too.
  const superseded = decideSuperseded([...history, ...opening, request], {
    policy: config.conversation.history.superseded,
    now: at.getTime(),
    lastRequestAt: lastActivityAt(history),
    cacheTtlSecs: supersededTtlSecs(config, session.provider.id),
  });
  if (superseded.length > 0) request.superseded = superseded;
  const events: ConversationEvent[] = [...opening, request];
  return { index: history.filter((event) => event.type === 'turn_start').length, events, request };
}

/**
 * The id of the turn a new turn follows: the last of the line loaded (RFD 029). Lines written
 * before turns had ids are known by their place (`@<n>`, branch-lines.ts); none for a first turn.
 */
function parentTurn(history: readonly ConversationEvent[]): string | null {
  const starts = history.filter((event) => event.type === 'turn_start') as Array<{ id?: string }>;
  if (starts.length === 0) return null;
  return starts.at(-1)!.id ?? `@${starts.length - 1}`;
}
