import { isBlobResource, type ConversationEvent, type Resource } from '@jp/core';
import { elideBlobs } from './explain-request.ts';
import { forModel, framedOpening, providerRequest, turnTools } from './answer-turn.ts';
import type { QuerySession } from './open-session.ts';
import type { TurnOpening } from './open-turn.ts';

/** `--explain`: prints the request the provider would be sent for this turn; sends and stores nothing. */
export async function explainTurn(session: QuerySession, turn: TurnOpening): Promise<void> {
  const { output } = session.ctx;
  const { framed } = await turnTools(session, [...session.history, ...turn.events]);
  const sent = forModel(session)([...session.history, ...framedOpening(turn.events, framed)]);
  const tools = framed.frame.tools;
  const built = session.provider.buildRequest({ ...providerRequest(session, framed.frame), events: sent, tools: tools.length > 0 ? tools : undefined });
  for (const warning of built.warnings) output.warn(warning);
  output.data({ provider: session.provider.id, model: session.model, request: elideBlobs(built.request, blobsOf(sent.at(-1))), warnings: built.warnings });
}

/** The blob resources of the turn's request, whose base64 the printed request shows shortened. */
function blobsOf(request: ConversationEvent | undefined): Resource[] {
  return request?.type === 'chat_request' ? (request as { resources: Resource[] }).resources.filter(isBlobResource) : [];
}
