/**
 * A `provider/model` id as jp's tables (prices, context windows) know it: a snapshot date or
 * `-latest` dropped (`claude-sonnet-4-5-20250929` is `claude-sonnet-4-5`), and Anthropic's
 * aliases without a minor version given their `-0` (`claude-sonnet-4` is `claude-sonnet-4-0`).
 */
export function baseModelId(model: string): string {
  return model.replace(/-(\d{8}|\d{4}-\d{2}-\d{2}|latest)$/, '').replace(/^(anthropic\/claude-(?:opus|sonnet)-4)$/, '$1-0');
}
