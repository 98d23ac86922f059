type Detail = Record<string, unknown>;

const TEXT_FIELDS = ['text', 'summary', 'data'] as const;

/**
 * OpenRouter's `reasoning_details`, put back together from a stream: each delta carries pieces of
 * the entries, numbered by `index`; pieces of one entry concatenate their text (`text`, `summary`,
 * `data`), and its other fields (`type`, `id`, `format`, `signature`) take the last value given.
 * What comes out is sent back unchanged with the answer
 * (openrouter.ai/docs/use-cases/reasoning-tokens#preserving-reasoning-blocks).
 */
export class ReasoningDetails {
  private readonly entries = new Map<number, Detail>();

  add(pieces: readonly unknown[]): void {
    for (const [position, piece] of pieces.entries()) {
      if (typeof piece !== 'object' || piece === null || Array.isArray(piece)) continue;
      const fields = piece as Detail;
      const index = typeof fields.index === 'number' ? fields.index : this.entries.size + position;
      const entry = this.entries.get(index);
      if (entry === undefined) {
        this.entries.set(index, { ...fields });
        continue;
      }
      for (const [key, value] of Object.entries(fields)) {
        const text = (TEXT_FIELDS as readonly string[]).includes(key) && typeof value === 'string' && typeof entry[key] === 'string';
        entry[key] = text ? (entry[key] as string) + value : value;
      }
    }
  }

  items(): Detail[] {
    return [...this.entries.entries()].sort(([a], [b]) => a - b).map(([, entry]) => entry);
  }
}
