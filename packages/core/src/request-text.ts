import type { FreshnessNotice } from './freshness-notice.ts';

/**
 * What the model reads of a request: the user's text, then the notices, one a line, after a blank
 * line. A function of the stored event alone, so each request's bytes stay the same in every
 * later request (the provider's prefix cache keeps hitting).
 */
export function requestTextWithNotices(content: string, notices: readonly FreshnessNotice[] | undefined, notes: readonly string[] = []): string {
  const all = [...(notices ?? []).map((notice) => notice.text), ...notes];
  if (all.length === 0) return content;
  const lines = all.map((text) => `[jp] ${text}`).join('\n');
  return content === '' ? lines : `${content}\n\n${lines}`;
}
