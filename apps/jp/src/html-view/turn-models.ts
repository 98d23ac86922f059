import type { ConfigDeltaEvent, ConversationEvent } from '@jp/core';

type Layer = Record<string, unknown>;

function modelIn(layer: Layer | undefined): string | undefined {
  const assistant = layer?.assistant;
  if (typeof assistant !== 'object' || assistant === null) return undefined;
  const model = (assistant as Layer).model;
  return typeof model === 'string' ? model : undefined;
}

function removesModel(event: ConfigDeltaEvent): boolean {
  return (event.removed ?? []).some((key) => key[0] === 'assistant' && (key.length === 1 || key[1] === 'model'));
}

/**
 * The model each turn was answered by, as far as the stream records it: its `turn_start`'s `model`
 * where it has one (jp writes it since issue W); else the last `assistant.model`
 * the conversation set itself (`--model`, `-c`), else the workspace file's as the conversation saw
 * it (`baseConfig`, then each files delta). A turn's own deltas come right after its `turn_start`,
 * so they count for it. `fallback` (the model the configuration names now) stands in for a turn
 * whose model only the user's config file said, which the stream does not record.
 */
export function turnModels(baseConfig: Layer, events: readonly ConversationEvent[], fallback: string | undefined): Array<string | undefined> {
  let own: string | undefined;
  let files = modelIn(baseConfig);
  const models: Array<string | undefined> = [];
  // A turn that records its model (turn_start.model) is known for sure.
  let recorded: string | undefined;
  for (const event of events) {
    if (event.type === 'turn_start') {
      recorded = (event as { model?: string }).model;
      models.push(recorded ?? own ?? files);
      continue;
    }
    if (event.type === 'config_delta') {
      const delta = event as ConfigDeltaEvent;
      if (delta.source === 'files') {
        if (removesModel(delta)) files = undefined;
        files = modelIn(delta.delta) ?? files;
      } else own = modelIn(delta.delta) ?? own;
    }
    if (models.length > 0) models[models.length - 1] = recorded ?? own ?? files;
  }
  return models.map((model) => model ?? fallback);
}
