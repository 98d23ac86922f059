/**
 * Whether jp compacts by itself before sending (`conversation.compaction.auto`, RFD 027), given the
 * request's estimated tokens before and after the planned compaction. A compaction breaks the
 * prompt cache once, so it has to buy room for several turns: it is made when it brings the
 * request down to `target` (a margin under the threshold: 0.7 of the window by default), or —
 * falling short of that — when without it the request would not fit the window at all. Otherwise
 * it is not made: compacting again every turn for a few tokens would rewrite the cache each time
 * (the money bench showed exactly that), and what is left to do is a summary or fewer kept turns.
 */
export function autoCompactionVerdict(input: { before: number; after: number; window: number; threshold: number }): 'compact' | 'not-enough' {
  const target = Math.max(input.threshold - 0.2, input.threshold / 2) * input.window;
  if (input.after <= target) return 'compact';
  if (input.before > input.window && input.after <= input.window) return 'compact';
  return 'not-enough';
}
