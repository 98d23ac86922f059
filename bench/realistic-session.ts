// A realistic coding session for the money bench (compaction-bill.ts): 120 turns, made from a seed,
// the same on every run.
//
// Sizes per model call follow the per-step distributions measured over 357 161 agent steps of
// Claude and Codex coding sessions by the SyFI TraceLab (University of Washington,
// https://tracelab.cs.washington.edu/exp/llm_generation/token_length_distribution/, read
// 2026-11-28), Claude's column:
//   - output tokens per call: p25 132, median 252, p90 1 671, p99 6 571;
//   - tokens appended per call (tool results, the user's text): median 857, p90 5 342.
// Each is drawn from a log-normal with that median and p90 (capped near the p99). Those sessions
// are agents running about eight calls per request; a jp conversation is a person asking, so we
// take three tool rounds per turn on average (geometric), and say so. Files are attached,
// edited, re-attached and read again with `refresh_resource`; about one turn in twelve comes
// after an idle gap of 10–90 minutes (the prompt cache is cold), the others 20 s–5 min after the
// last answer. These timings are our assumption, not a measurement.

/** A seeded generator (mulberry32): the session is the same on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A log-normal draw with this median and 90th percentile, capped. */
function logNormal(next: () => number, median: number, p90: number, cap: number): number {
  const sigma = Math.log(p90 / median) / 1.2816;
  const z = Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  return Math.min(cap, Math.max(1, Math.round(median * Math.exp(sigma * z))));
}

/** Text of about `bytes` bytes, different for each seed: lines of words, like code or prose. */
export function filler(seed: string, bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = `${seed} ${i.toString(36)} const value${i % 97} = compute(${(i * 7919) % 10007}, "${seed.slice(0, 12)}");`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n').slice(0, bytes);
}

export interface ToolStep {
  name: 'read_file' | 'grep' | 'run_tests' | 'refresh_resource';
  arguments: Record<string, unknown>;
  /** The tool's text result, or for `refresh_resource` the file it reads again. */
  result: string;
  refresh?: { file: string; version: number } | undefined;
}

/** One model call: what the model wrote, and the tool it called (none: the turn's answer). */
export interface Step {
  /** Seconds since the previous request (the model's time and the tool's). */
  afterSecs: number;
  reasoning?: string | undefined;
  text: string;
  tool?: ToolStep | undefined;
}

export interface SessionTurn {
  /** Seconds since the previous turn's last call: the person reading, thinking, or away. */
  gapSecs: number;
  query: string;
  attach: Array<{ file: string; version: number }>;
  steps: Step[];
}

export interface Session {
  turns: SessionTurn[];
  /** A file's text at a version. */
  content(file: string, version: number): string;
}

const FILES = ['src/main.ts', 'src/parser.ts', 'src/store.ts', 'src/cli.ts', 'src/render.ts', 'src/config.ts', 'test/parser.test.ts', 'test/store.test.ts', 'README.md', 'docs/design.md'];

export function realisticSession(options: { turns?: number; seed?: number } = {}): Session {
  const turnCount = options.turns ?? 120;
  const next = random(options.seed ?? 20261128);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const sizes = new Map(FILES.map((file) => [file, logNormal(next, 9_000, 30_000, 60_000)]));
  const versions = new Map(FILES.map((file) => [file, 0]));
  const attached = new Set<string>();
  const tokens = (n: number) => n * 4;
  const turns: SessionTurn[] = [];
  for (let turn = 0; turn < turnCount; turn++) {
    const long = turn > 0 && next() < 1 / 12;
    const gapSecs = long ? 600 + Math.round(next() * 4800) : logNormal(next, 60, 240, 300);
    // The person edits a file between turns now and then.
    if (next() < 0.3) {
      const file = pick(FILES);
      versions.set(file, versions.get(file)! + 1);
    }
    const attach: SessionTurn['attach'] = [];
    if (turn === 0) for (const file of ['README.md', 'src/main.ts']) attach.push({ file, version: versions.get(file)! });
    else if (next() < 0.25) {
      const file = pick(FILES);
      attach.push({ file, version: versions.get(file)! });
    }
    for (const { file } of attach) attached.add(file);
    const rounds = Math.min(10, Math.floor(Math.log(1 - next()) / Math.log(0.75)));
    const steps: Step[] = [];
    for (let round = 0; round <= rounds; round++) {
      const out = tokens(logNormal(next, 252, 1_671, 8_000));
      const reasoning = next() < 0.4 ? filler(`think-${turn}-${round}`, tokens(logNormal(next, 150, 900, 4_000))) : undefined;
      const text = filler(`answer-${turn}-${round}`, out);
      const afterSecs = round === 0 ? gapSecs : 4 + Math.round(out / 4 / 60) + Math.round(next() * 20);
      if (round === rounds) {
        steps.push({ afterSecs, reasoning, text });
        break;
      }
      const appended = tokens(logNormal(next, 857, 5_342, 25_000));
      const kind = next();
      let tool: ToolStep;
      if (kind < 0.15 && attached.size > 0) {
        const file = pick([...attached]);
        tool = { name: 'refresh_resource', arguments: { uri: `file:///w/${file}` }, result: '', refresh: { file, version: versions.get(file)! } };
      } else if (kind < 0.5) tool = { name: 'read_file', arguments: { path: pick(FILES) }, result: filler(`read-${turn}-${round}`, appended) };
      else if (kind < 0.75) tool = { name: 'grep', arguments: { pattern: `value${round}`, path: 'src/' }, result: filler(`grep-${turn}-${round}`, appended) };
      else tool = { name: 'run_tests', arguments: { filter: pick(FILES) }, result: filler(`tests-${turn}-${round}`, appended) };
      steps.push({ afterSecs, reasoning, text: text.slice(0, Math.min(text.length, 600)), tool });
    }
    turns.push({ gapSecs, query: filler(`question-${turn}`, 80 + Math.round(next() * 500)), attach, steps });
  }
  const content = (file: string, version: number) => filler(`${file}@${version}`, sizes.get(file)!);
  return { turns, content };
}
