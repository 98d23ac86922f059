// After the bundle is built: what the npm package carries besides it — the man page (made from the
// command tree, as docs/cli.md is), the shell completion scripts, the README and the licence.
//   tsx scripts/package-assets.ts   (run by `pnpm build`)
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildProgram } from '../src/cli/main.ts';
import { renderManPage } from '../src/cli/man-page.ts';
import { completionScript } from '../src/commands/completion.ts';
import { version } from '../src/version.ts';

const app = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repo = path.resolve(app, '../..');
const program = buildProgram();

mkdirSync(path.join(app, 'man'), { recursive: true });
writeFileSync(path.join(app, 'man', 'jp.1'), renderManPage(program, version));

mkdirSync(path.join(app, 'completions'), { recursive: true });
writeFileSync(path.join(app, 'completions', 'jp.bash'), completionScript('bash', program));
writeFileSync(path.join(app, 'completions', '_jp'), completionScript('zsh', program));
writeFileSync(path.join(app, 'completions', 'jp.fish'), completionScript('fish', program));

copyFileSync(path.join(repo, 'README.md'), path.join(app, 'README.md'));
copyFileSync(path.join(repo, 'LICENSE'), path.join(app, 'LICENSE'));
