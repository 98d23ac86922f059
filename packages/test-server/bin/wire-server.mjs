#!/usr/bin/env node
// Standalone wire server for end-to-end tests. Runs with plain `node`, no TypeScript loader.
//
//   node packages/test-server/bin/wire-server.mjs [--record FILE] [--error STATUS] [--port N] [--exit-on-stdin-close]
//
// Prints {"url":"http://127.0.0.1:<port>"} as one line on stdout once listening. Every
// POST /v1/messages gets an Anthropic text stream "ok <n>" (n = 1, 2, … per request), or with
// --error STATUS an Anthropic error body with that status. --record appends each request body
// as one JSON line to FILE before answering. Stops on SIGTERM/SIGINT, and with
// --exit-on-stdin-close also when its stdin closes (so a crashed parent leaves no orphan).
import { parseArgs } from 'node:util';
import { startStandaloneServer } from '../src/standalone-server.mjs';

const usage = 'usage: wire-server.mjs [--record FILE] [--error STATUS] [--port N] [--exit-on-stdin-close]';

/** @param {string | undefined} text @param {string} flag */
function integer(text, flag) {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) {
    process.stderr.write(`wire-server: ${flag} needs a non-negative integer, got ${JSON.stringify(text)}\n${usage}\n`);
    process.exit(2);
  }
  return value;
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      record: { type: 'string' },
      error: { type: 'string' },
      port: { type: 'string' },
      'exit-on-stdin-close': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  }));
} catch (error) {
  process.stderr.write(`wire-server: ${error instanceof Error ? error.message : String(error)}\n${usage}\n`);
  process.exit(2);
}
if (values.help) {
  process.stdout.write(`${usage}\n`);
  process.exit(0);
}

const errorStatus = integer(values.error, '--error');
const port = integer(values.port, '--port');
const server = await startStandaloneServer({
  ...(values.record === undefined ? {} : { record: values.record }),
  ...(errorStatus === undefined ? {} : { errorStatus }),
  ...(port === undefined ? {} : { port }),
});
const stop = () => {
  void server.close().finally(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
if (values['exit-on-stdin-close']) {
  process.stdin.resume();
  process.stdin.once('end', stop);
}
// Last, so a parent that reacts to the url line at once finds the signal handlers in place.
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
