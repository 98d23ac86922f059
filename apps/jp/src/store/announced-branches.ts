import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from './atomic-write.ts';
import { LOCAL_DIR } from './jp-git-files.ts';

/**
 * Branches (`<id>~<key>`, RFD 029) this machine has already been told about: `jp conversation ls`
 * says once that a conversation was continued on two clones. Kept under `.jp/local/`, never shared.
 * Returns the ones not told yet and records them; best effort (a read-only workspace tells again).
 */
export function newlySeenBranches(jpDir: string, branches: readonly string[]): string[] {
  const file = path.join(jpDir, LOCAL_DIR, 'announced-branches.json');
  let known: string[] = [];
  try {
    const json: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (Array.isArray(json)) known = json.filter((entry): entry is string => typeof entry === 'string');
  } catch {
    // None told yet, or a damaged cache: told again.
  }
  const fresh = branches.filter((id) => !known.includes(id));
  if (fresh.length > 0) {
    try {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileAtomic(file, `${JSON.stringify([...known, ...fresh])}\n`, { flush: false });
    } catch {
      // Told again next time.
    }
  }
  return fresh;
}
