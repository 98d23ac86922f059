import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { ensureJpGitFiles, LOCAL_DIR } from '../store/jp-git-files.ts';

/**
 * A directory under `.jp/local/` (drafts, generated pages), made when missing, with `.jp/.gitignore`
 * in place first so git never sees it (RFD 029).
 */
export function localDir(jpDir: string, ...names: string[]): string {
  ensureJpGitFiles(jpDir);
  const dir = path.join(jpDir, LOCAL_DIR, ...names);
  mkdirSync(dir, { recursive: true });
  return dir;
}
