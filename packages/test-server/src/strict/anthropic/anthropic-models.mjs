// What the strict Anthropic stand-in knows of each model, newest first (the order GET /v1/models uses).
// Every row is read from Anthropic's pages, checked 2026-12-02:
//   T  https://platform.claude.com/docs/en/build-with-claude/thinking-troubleshooting (thinking types, defaults,
//      rejected values; the 5.5 rows from the page's current translation /docs/id/…)
//   E  https://platform.claude.com/docs/en/build-with-claude/effort (effort levels per model)
//   O  https://platform.claude.com/docs/en/build-with-claude/thinking#output-limits and /docs/en/models/<id>/overview
//      (context window, max_tokens ceiling)
//   S  https://platform.claude.com/docs/en/build-with-claude/structured-outputs#compatibility
//   M  https://platform.claude.com/docs/en/build-with-claude/mid-conversation-system-messages (role:"system" in messages)
//   P  https://platform.claude.com/docs/en/build-with-claude/preserved-thinking and T (prefix check models)
//   C  https://platform.claude.com/docs/en/build-with-claude/prompt-caching (minimum cacheable prompt; 4.x values
//      also quoted by third parties, see README)
// `null` marks a value no page gave: the listing serves it as null rather than a guess.

const ALL = ['low', 'medium', 'high', 'xhigh', 'max'];
const NO_XHIGH = ['low', 'medium', 'high', 'max'];

/**
 * @typedef {object} AnthropicModel
 * @property {string} id
 * @property {string} name  display name
 * @property {'haiku'|'sonnet'|'opus'|'fable'|'mythos'} line
 * @property {string} created
 * @property {number} rank  generation order: a block from a higher rank cannot be read by a lower one (P)
 * @property {number|null} context
 * @property {number} maxTokens
 * @property {{adaptive: boolean, enabled: boolean, disabled: boolean, between_tools: boolean}} thinking
 * @property {'on'|'off'|'always'} thinkingDefault
 * @property {string[]|null} effort
 * @property {string} effortDefault
 * @property {string|null} offMaxEffort  highest effort allowed with thinking off (disabled/between_tools), T footnotes 2-3
 * @property {'adaptive'|'preview'|'between_tools'} disabledWording which documented 400 text `disabled` gets (T)
 * @property {'omitted'|'summarized'} display  default thinking display (https://platform.claude.com/docs/en/build-with-claude/thinking#controlling-thinking-display)
 * @property {boolean} structuredOutputs
 * @property {boolean} systemMessages
 * @property {boolean} prefill  prefilled final assistant turn accepted (4.6 and later reject it)
 * @property {boolean} prefixCheck
 * @property {number} cacheMin
 * @property {string} source
 */

/** @type {(row: Partial<AnthropicModel> & Pick<AnthropicModel, 'id'|'name'|'line'|'rank'>) => AnthropicModel} */
const model = (row) => ({
  created: '1970-01-01T00:00:00Z',
  context: 1_000_000,
  maxTokens: 128_000,
  thinking: { adaptive: true, enabled: false, disabled: false, between_tools: false },
  thinkingDefault: 'always',
  effort: ALL,
  effortDefault: 'high',
  offMaxEffort: null,
  disabledWording: 'adaptive',
  display: 'omitted',
  structuredOutputs: true,
  systemMessages: true,
  prefill: false,
  prefixCheck: false,
  cacheMin: 512,
  source: 'T E O S M P C',
  ...row,
});

/** @type {AnthropicModel[]} */
export const ANTHROPIC_MODELS = [
  // The 5.5 family: T (id translation) rows, whats-new-{opus,sonnet,haiku}-5-5, models/<id>/overview.
  model({ id: 'claude-haiku-5-5', name: 'Claude Haiku 5.5', line: 'haiku', rank: 14, created: '2026-10-07T00:00:00Z',
    thinking: { adaptive: true, enabled: false, disabled: true, between_tools: false }, thinkingDefault: 'on',
    effortDefault: 'medium', offMaxEffort: 'high', prefixCheck: true }),
  model({ id: 'claude-sonnet-5-5', name: 'Claude Sonnet 5.5', line: 'sonnet', rank: 14, created: '2026-09-28T00:00:00Z',
    thinking: { adaptive: true, enabled: false, disabled: false, between_tools: true }, thinkingDefault: 'on',
    offMaxEffort: 'high', disabledWording: 'between_tools', prefixCheck: true }),
  model({ id: 'claude-opus-5-5', name: 'Claude Opus 5.5', line: 'opus', rank: 14, created: '2026-09-22T00:00:00Z',
    effortDefault: 'medium', prefixCheck: true }),
  model({ id: 'claude-fable-5-1', name: 'Claude Fable 5.1', line: 'fable', rank: 13, prefixCheck: true }),
  // Mythos 5.1: T lists Fable 5.1 and the 5.5 family as the models that run the prefix check, not Mythos 5.1.
  model({ id: 'claude-mythos-5-1', name: 'Claude Mythos 5.1', line: 'mythos', rank: 13 }),
  model({ id: 'claude-opus-5', name: 'Claude Opus 5', line: 'opus', rank: 12, created: '2026-07-24T00:00:00Z',
    thinking: { adaptive: true, enabled: false, disabled: true, between_tools: false }, thinkingDefault: 'on', offMaxEffort: 'high' }),
  model({ id: 'claude-sonnet-5', name: 'Claude Sonnet 5', line: 'sonnet', rank: 11, created: '2026-06-30T00:00:00Z',
    thinking: { adaptive: true, enabled: false, disabled: true, between_tools: false }, thinkingDefault: 'on',
    systemMessages: false, cacheMin: 1024 }),
  model({ id: 'claude-fable-5', name: 'Claude Fable 5', line: 'fable', rank: 10, created: '2026-06-09T00:00:00Z' }),
  model({ id: 'claude-mythos-5', name: 'Claude Mythos 5', line: 'mythos', rank: 10, created: '2026-06-09T00:00:00Z' }),
  model({ id: 'claude-opus-4-8', name: 'Claude Opus 4.8', line: 'opus', rank: 9,
    thinking: { adaptive: true, enabled: false, disabled: true, between_tools: false }, thinkingDefault: 'off', cacheMin: 1024 }),
  // Mythos Preview: no page in reach gave its context window; E lists max but not xhigh.
  model({ id: 'claude-mythos-preview', name: 'Claude Mythos Preview', line: 'mythos', rank: 8, context: null,
    thinking: { adaptive: true, enabled: true, disabled: false, between_tools: false }, effort: NO_XHIGH,
    disabledWording: 'preview', systemMessages: false, cacheMin: 1024 }),
  model({ id: 'claude-opus-4-7', name: 'Claude Opus 4.7', line: 'opus', rank: 8, created: '2026-04-16T00:00:00Z',
    thinking: { adaptive: true, enabled: false, disabled: true, between_tools: false }, thinkingDefault: 'off',
    systemMessages: false, cacheMin: 2048 }),
  model({ id: 'claude-opus-4-6', name: 'Claude Opus 4.6', line: 'opus', rank: 7,
    thinking: { adaptive: true, enabled: true, disabled: true, between_tools: false }, thinkingDefault: 'off', effort: NO_XHIGH,
    display: 'summarized', systemMessages: false, cacheMin: 4096 }),
  model({ id: 'claude-sonnet-4-6', name: 'Claude Sonnet 4.6', line: 'sonnet', rank: 7,
    thinking: { adaptive: true, enabled: true, disabled: true, between_tools: false }, thinkingDefault: 'off', effort: NO_XHIGH,
    display: 'summarized', systemMessages: false, cacheMin: 2048 }),
  model({ id: 'claude-opus-4-5', name: 'Claude Opus 4.5', line: 'opus', rank: 6, created: '2025-11-24T00:00:00Z',
    context: 200_000, maxTokens: 64_000, thinking: { adaptive: false, enabled: true, disabled: true, between_tools: false },
    thinkingDefault: 'off', effort: ['low', 'medium', 'high'], display: 'summarized', systemMessages: false, prefill: true, cacheMin: 4096 }),
  model({ id: 'claude-haiku-4-5', name: 'Claude Haiku 4.5', line: 'haiku', rank: 5, created: '2025-10-15T00:00:00Z',
    context: 200_000, maxTokens: 64_000, thinking: { adaptive: false, enabled: true, disabled: true, between_tools: false },
    thinkingDefault: 'off', effort: null, display: 'summarized', systemMessages: false, prefill: true, cacheMin: 4096 }),
  model({ id: 'claude-sonnet-4-5', name: 'Claude Sonnet 4.5', line: 'sonnet', rank: 5, created: '2025-09-29T00:00:00Z',
    context: 200_000, maxTokens: 64_000, thinking: { adaptive: false, enabled: true, disabled: true, between_tools: false },
    thinkingDefault: 'off', effort: null, display: 'summarized', systemMessages: false, prefill: true, cacheMin: 1024 }),
];

/** Dated aliases the Messages API also accepts (the SDK's `Model` union lists them). */
const ALIASES = { 'claude-haiku-4-5-20251001': 'claude-haiku-4-5', 'claude-opus-4-5-20251101': 'claude-opus-4-5', 'claude-sonnet-4-5-20250929': 'claude-sonnet-4-5' };

/**
 * @param {readonly AnthropicModel[]} models
 * @param {unknown} id
 * @returns {AnthropicModel | undefined}
 */
export function findAnthropicModel(models, id) {
  if (typeof id !== 'string') return undefined;
  const canonical = /** @type {Record<string, string>} */ (ALIASES)[id] ?? id;
  return models.find((row) => row.id === canonical);
}
