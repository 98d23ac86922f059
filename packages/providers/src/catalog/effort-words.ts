import { REASONING_LEVELS, type ReasoningLevel } from '../reasoning/reasoning-setting.ts';

/** A vendor's effort word in jp's words: OpenAI's and OpenRouter's `none` is `off`, Gemini's `HIGH` is `high`. */
export function effortAsLevel(word: string): ReasoningLevel | undefined {
  const lower = word.toLowerCase();
  const level = lower === 'none' ? 'off' : lower;
  return (REASONING_LEVELS as readonly string[]).includes(level) ? (level as ReasoningLevel) : undefined;
}

/** The vendor's word for `level` among `efforts`, as the vendor spells it. */
export function levelAsEffort(level: ReasoningLevel, efforts: readonly string[]): string | undefined {
  return efforts.find((word) => effortAsLevel(word) === level);
}

/** The levels `efforts` stand for, in jp's words. */
export function effortLevels(efforts: readonly string[] | undefined): ReasoningLevel[] {
  return (efforts ?? []).flatMap((word) => effortAsLevel(word) ?? []);
}
