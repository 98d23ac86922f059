import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createWireServer, type WireServer } from '@jp/test-server';
import { afterAll, beforeAll, expect } from 'vitest';
import { makeSandbox, runJp } from './run-jp.ts';

/**
 * For a `describe` block talking to a vendor wire: a sandboxed workspace (`jp init` run, `files`
 * written, by workspace-relative name) and a local wire server, made before its tests and closed
 * after them. `server()` is the server, from the block's own `beforeAll` on.
 */
export function wireWorkspace(files: Record<string, string> = {}): { root: string; env: NodeJS.ProcessEnv; ws: string; server: () => WireServer } {
  const { root, env } = makeSandbox();
  const ws = path.join(root, 'project');
  let server: WireServer | undefined;
  beforeAll(async () => {
    server = await createWireServer();
    mkdirSync(ws, { recursive: true });
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(ws, name), text);
    expect((await runJp(['init'], { cwd: ws, env })).code).toBe(0);
  });
  afterAll(async () => {
    await server?.close();
  });
  return { root, env, ws, server: () => server! };
}
