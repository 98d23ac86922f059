import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('zod without its compiled fast path', () => {
  it('takes jitless from the global jp.ts sets before zod loads (zod 4, pinned)', () => {
    const script = `globalThis.__zod_globalConfig = { jitless: true };
      const z = await import('zod');
      const schema = z.strictObject({ a: z.string() });
      schema.parse({ a: 'x' });
      process.stdout.write(JSON.stringify({ jitless: z.config().jitless, fails: !schema.safeParse({ a: 1 }).success }));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: import.meta.dirname, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ jitless: true, fails: true });
  });
});
