import { existsSync, mkdirSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '@jp/core';
import type { GlobalOptions } from '../cli/global-options.ts';
import { Output } from '../output/output.ts';
import { JP_DIR } from '../workspace/workspace.ts';

const TEMPLATE = `# jp workspace configuration. \`jp config show\` prints the effective values;
# \`-c KEY=VALUE\` overrides any of them for one command.

[assistant]
# The model used when a query does not pass -m. "echo" is offline and describes what it received.
# model = "anthropic/claude-sonnet-4-5"

[conversation]
# Attachments every new conversation gets at its first turn.
# attachments = ["README.md"]
`;

export async function initCommand(globals: GlobalOptions, dir: string | undefined): Promise<void> {
  const output = new Output(globals);
  const target = path.resolve(process.cwd(), dir ?? '.');
  if (existsSync(target) && !statSync(target).isDirectory()) throw new UsageError(`${dir} is not a directory`, { code: 'not_a_directory' });
  mkdirSync(target, { recursive: true });
  const root = realpathSync(target);
  const jpDir = path.join(root, JP_DIR);
  const created = !existsSync(jpDir);
  if (created) {
    mkdirSync(jpDir);
    writeFileSync(path.join(jpDir, 'config.toml'), TEMPLATE);
  }
  if (output.json) output.data({ workspace: root, created });
  else if (created) output.line(`Initialised jp workspace in ${root}`);
  else output.line(`${root} is already a jp workspace`);
}
