import { isBlobResource, type ConversationEvent, type Resource } from '@jp/core';
import type { Output } from '../output/output.ts';
import { terminalSafeJson } from '../output/terminal-text.ts';
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
  await printRequest(output, { provider: session.provider.id, model: session.model, request: elideBlobs(built.request, blobsOf(sent.at(-1))), warnings: built.warnings }, session.config.style.render);
}

/**
 * The request on one line for a script (a pipe, a file, `-F json`); on a terminal, for a person,
 * indented and, where answers are rendered, highlighted as JSON by the renderer's highlighter.
 */
async function printRequest(output: Output, value: unknown, render: boolean): Promise<void> {
  if (!output.stdoutForPeople) {
    output.data(value);
    return;
  }
  const text = terminalSafeJson(value, 2);
  if (!output.rendersMarkdown(render) || !output.stdoutColor) {
    output.writeStyled(`${text}\n`);
    return;
  }
  const [{ highlightLines }, { renderStyles }] = await Promise.all([import('../render/highlight-code.ts'), import('../render/render-styles.ts')]);
  output.writeStyled(`${highlightLines(text, 'json', renderStyles(true)).lines.join('\n')}\n`);
}

/** The blob resources of the turn's request, whose base64 the printed request shows shortened. */
function blobsOf(request: ConversationEvent | undefined): Resource[] {
  return request?.type === 'chat_request' ? (request as { resources: Resource[] }).resources.filter(isBlobResource) : [];
}
