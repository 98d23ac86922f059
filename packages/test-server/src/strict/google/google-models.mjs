// What the strict Gemini stand-in knows of each model (checked 2026-12-02).
//   TH https://docs.cloud.google.com/gemini-enterprise-agent-platform/models/thinking — "Supported thinking levels
//      by model" (3.x levels and defaults) and "Supported thinking budgets by model" (2.5 ranges; 2.5 Pro cannot turn
//      thinking off; Flash and Flash-Lite take 0)
//   AI https://ai.google.dev/gemini-api/docs/thinking and /docs/models/<id> (token limits: 1,048,576 in, 65,536 out)
//   TS https://ai.google.dev/gemini-api/docs/thought-signatures (3.x: signatures on function calls required)

/**
 * @typedef {object} GoogleModel
 * @property {string} id
 * @property {string} displayName
 * @property {number} inputTokenLimit
 * @property {number} outputTokenLimit
 * @property {{ min: number, max: number, canDisable: boolean } | null} budget  2.5: thinkingBudget range
 * @property {string[] | null} levels  3.x: thinkingLevel values
 * @property {string | null} levelDefault
 * @property {string} source
 */

const IN = 1_048_576;
const OUT = 65_536;
const ALL = ['MINIMAL', 'LOW', 'MEDIUM', 'HIGH'];

/** @type {(id: string, displayName: string, thinking: Pick<GoogleModel, 'budget' | 'levels' | 'levelDefault'>) => GoogleModel} */
const model = (id, displayName, thinking) => ({ id, displayName, inputTokenLimit: IN, outputTokenLimit: OUT, ...thinking, source: 'TH AI TS' });

/** @type {GoogleModel[]} */
export const GOOGLE_MODELS = [
  model('gemini-3.8-flash', 'Gemini 3.8 Flash', { budget: null, levels: ['LOW', 'MEDIUM', 'HIGH'], levelDefault: 'MEDIUM' }),
  model('gemini-3.7-flash', 'Gemini 3.7 Flash', { budget: null, levels: ['LOW', 'MEDIUM', 'HIGH'], levelDefault: 'MEDIUM' }),
  model('gemini-3.6-flash', 'Gemini 3.6 Flash', { budget: null, levels: ALL, levelDefault: 'MEDIUM' }),
  model('gemini-3.5-flash', 'Gemini 3.5 Flash', { budget: null, levels: ALL, levelDefault: 'MEDIUM' }),
  model('gemini-3.5-flash-lite', 'Gemini 3.5 Flash-Lite', { budget: null, levels: ALL, levelDefault: 'MINIMAL' }),
  model('gemini-3.1-pro-preview', 'Gemini 3.1 Pro Preview', { budget: null, levels: ['LOW', 'MEDIUM', 'HIGH'], levelDefault: 'HIGH' }),
  model('gemini-3.1-flash-lite', 'Gemini 3.1 Flash-Lite', { budget: null, levels: ALL, levelDefault: 'MINIMAL' }),
  model('gemini-3-flash-preview', 'Gemini 3 Flash Preview', { budget: null, levels: ALL, levelDefault: 'HIGH' }),
  model('gemini-2.5-pro', 'Gemini 2.5 Pro', { budget: { min: 128, max: 32_768, canDisable: false }, levels: null, levelDefault: null }),
  model('gemini-2.5-flash', 'Gemini 2.5 Flash', { budget: { min: 1, max: 24_576, canDisable: true }, levels: null, levelDefault: null }),
  model('gemini-2.5-flash-lite', 'Gemini 2.5 Flash-Lite', { budget: { min: 512, max: 24_576, canDisable: true }, levels: null, levelDefault: null }),
];

/**
 * @param {readonly GoogleModel[]} models
 * @param {unknown} id  `gemini-…` or `models/gemini-…`
 */
export const findGoogleModel = (models, id) => (typeof id === 'string' ? models.find((row) => row.id === id.replace(/^models\//, '')) : undefined);

/**
 * A Model as models.get / models.list return it.
 * https://ai.google.dev/api/models#Model
 * @param {GoogleModel} row
 */
export const googleModelInfo = (row) => ({
  name: `models/${row.id}`,
  version: row.id,
  displayName: row.displayName,
  description: row.displayName,
  inputTokenLimit: row.inputTokenLimit,
  outputTokenLimit: row.outputTokenLimit,
  supportedGenerationMethods: ['generateContent', 'countTokens', 'streamGenerateContent'],
  temperature: 1,
  maxTemperature: 2,
  topP: 0.95,
  topK: 64,
  thinking: true,
});
