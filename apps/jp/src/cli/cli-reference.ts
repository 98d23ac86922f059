import type { Command } from 'commander';

function walk(command: Command, path: string[]): Array<{ path: string[]; command: Command }> {
  return [
    { path, command },
    ...command.commands.filter((child) => child.name() !== 'help').flatMap((child) => walk(child, [...path, child.name()])),
  ];
}

/**
 * docs/cli.md: every command's `--help`, exactly as the CLI prints it (at a fixed width), so the
 * reference is generated from the program and a test can tell when it drifts.
 */
export function renderCliReference(program: Command): string {
  const sections = walk(program, []).map(({ path, command }) => {
    command.configureHelp({ helpWidth: 100 });
    const title = ['jp', ...path].join(' ');
    return `## \`${title}\`\n\n\`\`\`text\n${command.helpInformation().trimEnd()}\n\`\`\`\n`;
  });
  return `# jp command reference\n\nGenerated from \`--help\` by \`pnpm run docs:cli\`; a test fails when this file and the CLI disagree.\n\n${sections.join('\n')}`;
}
