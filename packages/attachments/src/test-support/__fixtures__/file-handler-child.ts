// Runs the file handler in a child process (as an unprivileged user when the tests run as root)
// and prints, as JSON, the outcome of each call: argv[2] is { root, cwd, calls }.
import { createFileHandler } from '../../file/file-handler.ts';
import { DEFAULT_LIMITS, type HandlerContext } from '../../handler.ts';

interface Call {
  op: 'validate' | 'resolve';
  input: string;
}
const { root, cwd, calls } = JSON.parse(process.argv[2]!) as { root: string; cwd: string; calls: Call[] };
const ctx: HandlerContext = { workspaceRoot: root, cwd, limits: DEFAULT_LIMITS, logger: { warn: () => {} } };
const handler = createFileHandler();
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
