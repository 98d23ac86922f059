#!/usr/bin/env node
// The `jp` binary. Kept tiny: `--version` answers before anything else loads, and every command
// module (with zod, the SDKs, the MCP client) is imported only when that command runs.
import { version } from './version.ts';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${version}\n`);
} else {
  // First, so that a reader thread it may start boots while the modules below load.
  (await import('./cli/warm-start.ts')).warmStart(args);
  const { main } = await import('./cli/main.ts');
  process.exitCode = await main(args);
}
