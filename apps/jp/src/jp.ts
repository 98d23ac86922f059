#!/usr/bin/env node
// The `jp` binary. Kept tiny: `--version` answers before anything else loads, and every command
// module (with zod, the SDKs, the MCP client) is imported only when that command runs.
import * as nodeModule from 'node:module';
import { editorFirstQuery } from './query/editor-first-args.ts';
import { nodeTooOld } from './require-node.ts';
import { version } from './version.ts';

const args = process.argv.slice(2);
// zod compiles a fast path (`new Function`) for each object schema the first time it parses; in a
// process that parses each schema a few times that compile costs more than it saves (an echo query
// ~9 ms, and `conversation show` of 1 000 turns is faster too: docs/performance.md). What
// `z.config({ jitless: true })` sets, set before zod loads so that it holds for every schema,
// the MCP SDK's included, without loading zod here (zod-jitless.test.ts pins that zod reads it).
(globalThis as { __zod_globalConfig?: object }).__zod_globalConfig = { jitless: true };
// Before anything that an older Node.js might fail on with a stack trace: one line, exit 1.
const tooOld = nodeTooOld(process.versions.node);
if (tooOld !== undefined) {
  process.stderr.write(`${tooOld}\n`);
  process.exit(1);
}
const versionOnly = args.length === 1 && (args[0] === '--version' || args[0] === '-V');
// Node.js 22.1 and later keep V8's compiled code of jp's chunks between runs (compile-cache.ts);
// Node 20 has no such API, and pays nothing for this check.
if (!versionOnly && 'enableCompileCache' in nodeModule) (await import('./compile-cache.ts')).enableCompileCache();
if (versionOnly) {
  process.stdout.write(`${version}\n`);
} else if (args[0] === '__complete') {
  // Shell completion runs on every Tab: it reads .jp/ directly, without the CLI's parser, and
  // prints nothing but candidates (RFD 015).
  const { completeCommand } = await import('./completion/complete-command.ts');
  process.stdout.write(await completeCommand(args.slice(1)));
} else {
  // Output nobody reads any more (`jp … | head` closed the pipe) is dropped, not a crash with a
  // stack trace: the command finishes its work — a query still stores its turn — and exits with
  // its own code (RFD 010).
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
  // `jp q` with no text on a terminal: the editor opens before the CLI loads, when its template
  // needs nothing the CLI would build (query/editor-first.ts); the CLI then takes the query written.
  const asked = editorFirstQuery(args, () => process.stdin.isTTY === true && process.stdout.isTTY === true);
  const written = asked === undefined ? undefined : await (await import('./query/editor-first.ts')).editorFirst(asked);
  if (written !== undefined && 'exitCode' in written) {
    process.exitCode = written.exitCode;
  } else {
    const { main } = await import('./cli/main.ts');
    process.exitCode = await main(args, written);
  }
  // Every command has finished its work when `main` returns: ending now spares the rest of the
  // event loop and part of tearing down a large heap. Output still on its way is never cut short.
  if (process.stdout.writableLength === 0 && process.stderr.writableLength === 0) process.exit();
}
