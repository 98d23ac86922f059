import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_LIMITS, type AttachmentLimits, type HandlerContext } from '../handler.ts';

/** A real workspace in a temp dir for tests: files are written for real, nothing is mocked. */
export interface TempWorkspace {
  /** Real path of the workspace root. */
  root: string;
  /** A second temp dir outside the workspace. */
  outside: string;
  warnings: string[];
  /** Writes a file (creating parent dirs) and returns its absolute path. */
  write(relative: string, content: string | Uint8Array): Promise<string>;
  mkdir(relative: string): Promise<string>;
  ctx(options?: { cwd?: string; limits?: Partial<AttachmentLimits> }): HandlerContext;
  cleanup(): Promise<void>;
}

export async function tempWorkspace(): Promise<TempWorkspace> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'jp-ws-')));
  const outside = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'jp-out-')));
  await fs.mkdir(path.join(root, '.jp'));
  const warnings: string[] = [];
  return {
    root,
    outside,
    warnings,
    async write(relative, content) {
      const target = path.join(root, relative);
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.writeFile(target, content);
      return target;
    },
    async mkdir(relative) {
      const target = path.join(root, relative);
      await fs.mkdir(target, { recursive: true });
      return target;
    },
    ctx(options = {}) {
      return {
        workspaceRoot: root,
        cwd: options.cwd ?? root,
        limits: { ...DEFAULT_LIMITS, ...options.limits },
        logger: { warn: (message) => warnings.push(message) },
      };
    },
    async cleanup() {
      await fs.rm(root, { recursive: true, force: true });
      await fs.rm(outside, { recursive: true, force: true });
    },
  };
}
