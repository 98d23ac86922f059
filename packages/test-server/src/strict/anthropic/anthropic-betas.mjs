// The `anthropic-beta` header values the strict stand-in reads, each with the page that names it.
/** @import { RecordedRequest } from '../../wire-types.mjs' */

export const BETA = {
  // https://platform.claude.com/docs/en/build-with-claude/preserved-thinking#how-it-works
  bindingControls: 'thinking-binding-controls-2026-08-01',
  // https://platform.claude.com/docs/en/build-with-claude/mid-conversation-system-messages#mid-conversation-tool-changes
  toolChanges: 'mid-conversation-tool-changes-2026-07-01',
  // https://platform.claude.com/docs/en/build-with-claude/mid-conversation-system-messages#turn-scoped-system-messages
  clearAt: 'mid-conversation-system-clear-at-2026-08-21',
  // https://platform.claude.com/docs/en/build-with-claude/preserved-thinking#api-features-used-on-this-page (per-message effort)
  messageOutputConfig: 'mid-conversation-output-config-2026-07-01',
  // https://platform.claude.com/docs/en/build-with-claude/thinking#controlling-thinking-display (display: "updates")
  displayUpdates: 'thinking-display-updates-2026-08-18',
};

/**
 * The betas a request carries. The SDK's beta path (`client.beta.messages.create`) posts to
 * `/v1/messages?beta=true` and sends the same header, so the header is what counts on both paths.
 * @param {RecordedRequest} request
 * @returns {Set<string>}
 */
export function requestBetas(request) {
  const header = request.headers['anthropic-beta'];
  const values = Array.isArray(header) ? header.join(',') : (header ?? '');
  return new Set(values.split(',').map((value) => value.trim()).filter(Boolean));
}
