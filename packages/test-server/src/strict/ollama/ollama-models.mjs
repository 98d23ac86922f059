// What the strict Ollama stand-in serves from POST /api/show (capabilities, model_info) and checks on
// POST /api/chat and /v1/chat/completions.
//   API  https://docs.ollama.com/api/show (capabilities: completion, tools, thinking, vision; model_info
//        "<architecture>.context_length"), https://docs.ollama.com/api/chat (think: true/false or
//        "high"/"medium"/"low", ollama-js README of the thinking-levels change: ollama/ollama-js@60bfed1)
//   Rows: the capabilities and context lengths of these library models are the ones their ollama.com/library
//        pages show; this table was not checked against a live server (README).

/**
 * @typedef {object} OllamaModel
 * @property {string} name
 * @property {string} architecture
 * @property {number} contextLength
 * @property {string} parameterSize
 * @property {string[]} capabilities
 */

/** @type {OllamaModel[]} */
export const OLLAMA_MODELS = [
  { name: 'qwen3:8b', architecture: 'qwen3', contextLength: 40_960, parameterSize: '8.2B', capabilities: ['completion', 'tools', 'thinking'] },
  { name: 'gpt-oss:20b', architecture: 'gptoss', contextLength: 131_072, parameterSize: '20.9B', capabilities: ['completion', 'tools', 'thinking'] },
  { name: 'llama3.2:3b', architecture: 'llama', contextLength: 131_072, parameterSize: '3.2B', capabilities: ['completion', 'tools'] },
  { name: 'gemma3:4b', architecture: 'gemma3', contextLength: 131_072, parameterSize: '4.3B', capabilities: ['completion', 'vision'] },
];

/**
 * `llama3.2` means `llama3.2:latest`; the table's tags stand for themselves and for `latest`.
 * @param {readonly OllamaModel[]} models
 * @param {unknown} name
 */
export function findOllamaModel(models, name) {
  if (typeof name !== 'string') return undefined;
  return models.find((row) => row.name === name || row.name.split(':')[0] === name || `${row.name.split(':')[0]}:latest` === name);
}

/**
 * The body of POST /api/show.
 * @param {OllamaModel} row
 */
export const ollamaShow = (row) => ({
  license: '',
  modelfile: `FROM ${row.name}`,
  parameters: '',
  template: '{{ .Prompt }}',
  details: { parent_model: '', format: 'gguf', family: row.architecture, families: [row.architecture], parameter_size: row.parameterSize, quantization_level: 'Q4_K_M' },
  model_info: { 'general.architecture': row.architecture, 'general.parameter_count': 0, [`${row.architecture}.context_length`]: row.contextLength },
  capabilities: row.capabilities,
  modified_at: '2026-01-01T00:00:00Z',
});
