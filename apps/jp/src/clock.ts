/**
 * The time jp stamps events with. `JP_TEST_CLOCK_OFFSET_SECS` (tests and `bench/token-economy`
 * only, not a user setting) moves it forward by that many seconds, so an idle gap longer than a
 * prompt cache's lifetime needs no real waiting. Offsets only ever grow within a script, so the
 * stream's timestamps stay in order.
 */
export function now(env: NodeJS.ProcessEnv = process.env): Date {
  const offset = Number(env.JP_TEST_CLOCK_OFFSET_SECS ?? 0);
  return new Date(Date.now() + (Number.isFinite(offset) ? offset * 1000 : 0));
}
