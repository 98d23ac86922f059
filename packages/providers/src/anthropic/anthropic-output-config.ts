import type { AnthropicEffort } from '../reasoning/anthropic-thinking.ts';
import type { ProviderRequest } from '../provider.ts';
import { anthropicSchemaProblem } from './anthropic-schema-limits.ts';
import type { OutputConfig } from './anthropic-types.ts';

/**
 * `output_config`: the effort the reasoning plan chose, and `--schema` as a native JSON-schema
 * format where the model supports structured outputs (platform.claude.com/docs/en/build-with-claude/structured-outputs;
 * `OutputConfig.format` in the SDK's messages.d.ts). Elsewhere the schema is not sent, a warning
 * says so, and the answer is still checked against it.
 */
export function anthropicOutputConfig(effort: AnthropicEffort | undefined, request: ProviderRequest, warnings: string[]): OutputConfig | undefined {
  const config: OutputConfig = {};
  if (effort !== undefined) config.effort = effort;
  if (request.schema !== undefined) {
    const problem = anthropicSchemaProblem(request.schema);
    if (request.modelInfo?.structuredOutput !== true) warnings.push(`${request.modelInfo?.id ?? request.model} has no structured output jp knows of; the answer is checked against --schema after it arrives`);
    else if (problem !== undefined) warnings.push(`Anthropic's structured output does not take this schema (${problem}); the answer is checked against --schema after it arrives`);
    else config.format = { type: 'json_schema', schema: request.schema };
  }
  return Object.keys(config).length === 0 ? undefined : config;
}
