// What every bench script shares: its command-line options and the median of its samples.

const args = process.argv.slice(2);

/** The word after `name` on the command line, or `fallback` when `name` is not given. */
export function option(name, fallback) {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
}

/** `option` as a number. */
export function numberOption(name, fallback) {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

/** The middle sample (the upper one of an even count). */
export function median(values) {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}
