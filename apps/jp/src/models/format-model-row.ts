import type { FactSource, ModelInfo, ModelReasoning } from '@jp/providers';

const COLUMNS = [
  ['MODEL', 36],
  ['CONTEXT', 9],
  ['OUTPUT', 8],
  ['REASONING', 46],
  ['JSON', 5],
  ['IMG/PDF', 8],
  ['$/M IN/OUT', 14],
] as const;

function pad(text: string, width: number): string {
  return text.length >= width ? `${text} ` : text.padEnd(width);
}

/** 1 000 000 → 1M, 400 000 → 400k, 1 047 576 → 1.05M. */
export function shortTokens(tokens: number | undefined): string {
  if (tokens === undefined) return '?';
  if (tokens >= 1_000_000) return `${Number((tokens / 1_000_000).toFixed(2))}M`;
  if (tokens >= 1000) return `${Number((tokens / 1000).toFixed(1))}k`;
  return String(tokens);
}

/** The reasoning column: thinking types, efforts and a budget range, in the vendor's words. */
export function describeReasoning(reasoning: ModelReasoning | false | undefined): string {
  if (reasoning === undefined) return '?';
  if (reasoning === false) return 'no';
  const parts: string[] = [];
  if (reasoning.thinkingTypes !== undefined && reasoning.thinkingTypes.length > 0) parts.push(reasoning.thinkingTypes.join('/'));
  if (reasoning.efforts !== undefined && reasoning.efforts.length > 0) parts.push(reasoning.efforts.join(','));
  if (reasoning.budget !== undefined) parts.push(`budget ${reasoning.budget.off === true || reasoning.budget.min === 0 ? '0|' : ''}${reasoning.budget.min}-${reasoning.budget.max}`);
  return parts.length === 0 ? 'yes' : parts.join(' ');
}

const yesNo = (value: boolean | undefined) => (value === undefined ? '?' : value ? 'yes' : 'no');

/** Where the row's values came from: one source, or each with its fields when they differ. */
export function describeSources(sources: ModelInfo['sources']): string {
  const kinds = [...new Set(Object.values(sources))] as FactSource[];
  return kinds.join('+');
}

export const MODEL_TABLE_HEADER = `${COLUMNS.map(([name, width]) => pad(name, width)).join('')}SOURCE`;

/** One line of `jp models`. */
export function formatModelRow(model: ModelInfo): string {
  const price = model.price === undefined ? '?' : `${model.price.input}/${model.price.output}`;
  const cells = [
    `${model.provider}/${model.id}`,
    shortTokens(model.contextWindow),
    shortTokens(model.maxOutputTokens),
    describeReasoning(model.reasoning),
    yesNo(model.structuredOutput),
    `${yesNo(model.imageInput)}/${yesNo(model.pdfInput)}`,
    price,
  ];
  return `${cells.map((cell, index) => pad(cell, COLUMNS[index]![1])).join('')}${describeSources(model.sources)}`;
}
