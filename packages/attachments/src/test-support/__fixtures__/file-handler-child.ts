// Runs the file handler in a child process (as an unprivileged user when the tests run as root)
// and prints, as JSON, the outcome of each call: argv[2] is { root, cwd, calls, drop }.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createFileHandler } from '../../file/file-handler.ts';
import { DEFAULT_LIMITS, type HandlerContext } from '../../handler.ts';

interface Call {
  op: 'validate' | 'resolve';
  input: string;
}
const { root, cwd, calls, drop } = JSON.parse(process.argv[2]!) as { root: string; cwd: string; calls: Call[]; drop?: number };
const ctx: HandlerContext = { workspaceRoot: root, cwd, limits: DEFAULT_LIMITS, logger: { warn: () => {} } };
const handler = createFileHandler();
if (drop !== undefined) {
  // Started as root, which may read the checkout wherever it is (a fresh clone is often 0700):
  // one file is read first, so every module the handler loads lazily is loaded, then the process
  // becomes `drop` for the calls, and a chmod really stops a read.
  const warm = mkdtempSync(path.join(tmpdir(), 'jp-warm-'));
  writeFileSync(path.join(warm, 'warm.txt'), 'warm\n');
  const warmCtx: HandlerContext = { ...ctx, workspaceRoot: warm, cwd: warm };
  await handler.resolve([await handler.validate('warm.txt', warmCtx)], warmCtx);
  rmSync(warm, { recursive: true, force: true });
  process.setgroups?.([]);
  process.setgid!(drop);
  process.setuid!(drop);
}
const outcomes: { ok: boolean; message: string }[] = [];
for (const call of calls) {
  try {
    const value = call.op === 'validate' ? await handler.validate(call.input, ctx) : await handler.resolve([call.input], ctx);
    outcomes.push({ ok: true, message: JSON.stringify(value) });
  } catch (error) {
    outcomes.push({ ok: false, message: error instanceof Error ? error.message : String(error) });
  }
}
process.stdout.write(JSON.stringify(outcomes));
