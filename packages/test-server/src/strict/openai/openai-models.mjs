// What the strict OpenAI stand-in knows of each model (checked 2026-12-02).
//   R  https://developers.openai.com/api/docs/guides/reasoning (values are model-dependent; gpt-5.5 defaults to medium)
//   SDK openai@6.49 resources/shared.d.ts ReasoningEffort: gpt-5.1 defaults to none and takes none/low/medium/high;
//      models before gpt-5.1 default to medium and do not take none; gpt-5-pro only high; xhigh after gpt-5.1-codex-max
//   MD per-model subsets from the model pages, as collected in https://github.com/anomalyco/models.dev/pull/2351
//      (gpt-5/-mini, gpt-5-pro, gpt-5.1, gpt-5.2, gpt-5.4/-mini/-nano, gpt-5.4-pro)
//   L  gpt-5.5 and gpt-5.5-pro: none…xhigh, rejecting minimal, verified live per
//      https://docs.rs/crate/meerkat-core/0.6.25/source/src/model_profile/capabilities/openai.rs
//   Limits (context, max output) from https://developers.openai.com/api/docs/models/<id>; see README for the rows
//   no page in reach confirmed (marked below).
// `efforts: null` is a model without reasoning: `reasoning` is refused.

const GPT5 = ['minimal', 'low', 'medium', 'high'];
const GPT51 = ['none', 'low', 'medium', 'high'];
const GPT52 = ['none', 'low', 'medium', 'high', 'xhigh'];
const PRO = ['medium', 'high', 'xhigh'];

/**
 * @typedef {object} OpenAIModel
 * @property {string} id
 * @property {string[] | null} efforts
 * @property {string | null} effortDefault
 * @property {number} context
 * @property {number} maxOutput
 * @property {number} created  unix seconds (0 where unknown)
 * @property {string} source
 */

/** @type {(id: string, efforts: string[] | null, effortDefault: string | null, context: number, maxOutput: number, source: string) => OpenAIModel} */
const model = (id, efforts, effortDefault, context, maxOutput, source) => ({ id, efforts, effortDefault, context, maxOutput, created: 0, source });

/** @type {OpenAIModel[]} */
export const OPENAI_MODELS = [
  model('gpt-5.5', GPT52, 'medium', 1_050_000, 128_000, 'R L'),
  model('gpt-5.5-pro', GPT52, 'medium', 1_050_000, 128_000, 'R L'),
  model('gpt-5.4', GPT52, 'none', 1_050_000, 128_000, 'MD'),
  // gpt-5.4-mini/nano limits: not confirmed on a page in reach; the gpt-5 family's 400k/128k.
  model('gpt-5.4-mini', GPT52, 'none', 400_000, 128_000, 'MD'),
  model('gpt-5.4-nano', GPT52, 'none', 400_000, 128_000, 'MD'),
  model('gpt-5.4-pro', PRO, 'medium', 1_050_000, 128_000, 'MD'),
  model('gpt-5.2', GPT52, 'none', 400_000, 128_000, 'MD'),
  // gpt-5.2-pro: no page in reach lists its values; the pro subset of gpt-5.4-pro.
  model('gpt-5.2-pro', PRO, 'medium', 400_000, 128_000, 'MD (by analogy)'),
  model('gpt-5.1', GPT51, 'none', 400_000, 128_000, 'SDK MD'),
  model('gpt-5', GPT5, 'medium', 400_000, 128_000, 'SDK MD'),
  model('gpt-5-mini', GPT5, 'medium', 400_000, 128_000, 'SDK MD'),
  model('gpt-5-nano', GPT5, 'medium', 400_000, 128_000, 'SDK MD'),
  model('gpt-5-pro', ['high'], 'high', 400_000, 272_000, 'SDK MD'),
  model('gpt-4.1', null, null, 1_047_576, 32_768, 'https://developers.openai.com/api/docs/models/gpt-4.1'),
  model('gpt-4.1-mini', null, null, 1_047_576, 32_768, 'https://developers.openai.com/api/docs/models/gpt-4.1-mini'),
  model('gpt-4o', null, null, 128_000, 16_384, 'https://developers.openai.com/api/docs/models/gpt-4o'),
  model('gpt-4o-mini', null, null, 128_000, 16_384, 'https://developers.openai.com/api/docs/models/gpt-4o-mini'),
];

/**
 * @param {readonly OpenAIModel[]} models
 * @param {unknown} id
 */
export const findOpenAIModel = (models, id) => (typeof id === 'string' ? models.find((row) => row.id === id) : undefined);

/**
 * "'none', 'low', 'medium', and 'high'" — the list as OpenAI's 400s write it.
 * @param {readonly string[]} values
 */
export function quotedList(values) {
  const quoted = values.map((value) => `'${value}'`);
  if (quoted.length <= 1) return quoted.join('');
  if (quoted.length === 2) return `${quoted[0]} and ${quoted[1]}`;
  return `${quoted.slice(0, -1).join(', ')}, and ${quoted.at(-1)}`;
}
