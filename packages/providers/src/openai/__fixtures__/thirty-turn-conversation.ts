// A scripted 30-turn conversation for the prefix-stability tests of the OpenAI-style converters.
import type { ConversationEvent, Resource } from '@jp/core';
import { blobResource, chatResponse, PNG_BYTES, textResource, toolCall, toolResult, turn } from '../../__fixtures__/conversation.ts';

export const TURNS = 30;

/** What each turn attaches: text at turns 0, 5 and 17, an image at turn 9; nothing elsewhere. */
export function resourcesOfTurn(index: number): Resource[] {
  switch (index) {
    case 0:
      return [
        textResource('file:///w/README.md', '# Project\nUse `jp`.\n', { name: 'README.md', mimeType: 'text/markdown' }),
        textResource('file:///w/src/main.rs', 'fn main() { println!("]]> & <tag>"); }\n', { name: 'src/main.rs', mimeType: 'text/x-rust' }),
      ];
    case 5:
      return [textResource('https://example.com/notes?a=1&b="2"', 'turn five notes', { name: 'https://example.com/notes?a=1&b="2"' })];
    case 9:
      return [blobResource('file:///w/diagram.png', 'image/png', PNG_BYTES, { name: 'diagram.png' })];
    case 17:
      return [
        textResource('cmd://git?arg=diff', 'diff --git a/x b/x\n+seventeen\n', { name: 'git diff' }),
        textResource('file:///w/CHANGELOG.md', 'seventeen changes', { name: 'CHANGELOG.md', mimeType: 'text/markdown' }),
      ];
    default:
      return [];
  }
}

/**
 * Thirty turns, each answered; turn 12 runs a tool before answering. `requestEnds[k]` is the length
 * of the event prefix the turn loop sends at turn k's first call (everything up to its request).
 */
export function thirtyTurnConversation(): { events: ConversationEvent[]; requestEnds: number[] } {
  const events: ConversationEvent[] = [];
  const requestEnds: number[] = [];
  for (let index = 0; index < TURNS; index += 1) {
    events.push(...turn(`Question ${index}?`, resourcesOfTurn(index)));
    requestEnds.push(events.length);
    if (index === 12) {
      events.push(chatResponse('Let me refresh it.'));
      events.push(toolCall('call_12', 'refresh_resource', { uri: 'file:///w/README.md' }));
      events.push(toolResult('call_12', [{ type: 'text', text: 'unchanged' }]));
    }
    events.push(chatResponse(`Answer ${index}.`));
  }
  return { events, requestEnds };
}

/**
 * A string that identifies a resource's wire form, as it appears inside `JSON.stringify` of a
 * request: the XML `uri="…"` attribute of a text resource, or the base64 of a blob.
 */
export function wireMarker(resource: Resource): string {
  const raw =
    'blob' in resource && resource.blob instanceof Uint8Array
      ? Buffer.from(resource.blob).toString('base64')
      : `uri="${resource.uri.replaceAll('&', '&amp;').replaceAll('"', '&quot;')}"`;
  return JSON.stringify(raw).slice(1, -1);
}
