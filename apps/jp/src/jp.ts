#!/usr/bin/env node
// The `jp` binary. Kept tiny: `--version` answers before anything else loads, and every command
// module (with zod, the SDKs, the MCP client) is imported only when that command runs.
import { version } from './version.ts';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${version}\n`);
} else {
  // Output nobody reads any more (`jp … | head` closed the pipe) is dropped, not a crash with a
  // stack trace: the command finishes its work — a query still stores its turn — and exits with
  // its own code (RFD 010).
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
  // A query attaching a tree starts its file reader first, so that it boots while the modules
  // below load; any other command loads nothing for it.
  if (args.some((arg) => arg === '-a' || arg === '--attach' || arg.startsWith('--attach='))) await (await import('./cli/warm-start.ts')).warmStart(args);
  const { main } = await import('./cli/main.ts');
  process.exitCode = await main(args);
  // Every command has finished its work when `main` returns. Ending here, not once the event loop
  // has drained by itself, saves what is left of it (a reader thread's termination, closed
  // descriptors) and part of tearing down a large heap: ~8 ms after attaching a tree of 9 000
  // files. Output still on its way (a pipe is asynchronous on some systems) is never cut short.
  if (process.stdout.writableLength === 0 && process.stderr.writableLength === 0) process.exit();
}
