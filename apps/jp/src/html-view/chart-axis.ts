/** A value axis: the tick values from 0 up to its top, and how each is written. */
export interface ValueAxis {
  /** From 0 up; the last is the top of the axis, at or above the tallest value. */
  ticks: number[];
  /** A tick's label, short enough for the axis: `12.5k`, `1.5 MiB`. */
  label(value: number): string;
}

/** 1, 2, 2.5 and 5 times a power of ten: steps a reader counts in without effort. */
const STEPS = [1, 2, 2.5, 5, 10];

/**
 * Round ticks from 0 to at least `max`, about `count` steps apart, each step at least `smallest`
 * (counts of whole things take no fractional steps). An empty series (max 0) has the one tick 0.
 */
export function niceTicks(max: number, count = 4, smallest = 1): number[] {
  if (!(max > 0)) return [0];
  const raw = Math.max(max / count, smallest);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = STEPS.map((m) => m * power).find((candidate) => candidate >= raw && candidate >= smallest && (smallest < 1 || Number.isInteger(candidate))) ?? 10 * power;
  const top = Math.ceil(max / step - 1e-9) * step;
  const ticks: number[] = [];
  for (let i = 0; i * step <= top + step / 1e6; i++) ticks.push(Number((i * step).toPrecision(12)));
  return ticks;
}

/** 12 345 as `12.3k`, 2 000 000 as `2M`. */
export function compactCount(n: number): string {
  if (n >= 1e6) return `${Number((n / 1e6).toFixed(2))}M`;
  if (n >= 1e3) return `${Number((n / 1e3).toFixed(2))}k`;
  return String(Number(n.toFixed(2)));
}

/** A token axis: whole-token steps, labels in k and M. */
export function tokenAxis(max: number): ValueAxis {
  return { ticks: niceTicks(max), label: compactCount };
}

const UNITS = [
  [1024 * 1024, 'MiB'],
  [1024, 'KiB'],
  [1, 'B'],
] as const;

/**
 * A byte axis in the unit of its tallest value (B, KiB, MiB, as `jp attachment ls` writes sizes),
 * with round steps in that unit: 0, 0.5, 1, 1.5 KiB rather than 0, 512, 1 024, 1 536 bytes.
 */
export function byteAxis(max: number): ValueAxis {
  const [size, name] = UNITS.find(([unit]) => max >= unit) ?? UNITS[2];
  const ticks = niceTicks(max / size, 4, size === 1 ? 1 : 0).map((tick) => tick * size);
  return { ticks, label: (value) => (value === 0 ? '0' : `${Number((value / size).toFixed(2))} ${name}`) };
}
