import type { Resource } from '@jp/core';
import { DEFAULT_COMMAND_LIMITS, type AttachmentHandler, type HandlerContext } from '../handler.ts';
import { commandName } from './command-name.ts';
import { commandFailedError, commandOutcomeError } from './command-error.ts';
import { appendStderr, STDERR_SEPARATOR, stderrNote } from './failure-output.ts';
import { outputContent } from './output-content.ts';
import { parseCmdUrl } from './parse-cmd-url.ts';
import { runCommand } from './run-command.ts';

/** Runs one declaration (the cmd URL as given, trimmed) and snapshots its stdout. */
async function runDeclaration(declaration: string, ctx: HandlerContext, done: number): Promise<Resource> {
  const uri = declaration.trim();
  const invocation = parseCmdUrl(uri);
  const name = commandName(invocation.program, invocation.args);
  ctx.progress?.update(done, name);
  const limits = ctx.commandLimits ?? DEFAULT_COMMAND_LIMITS;
  const outcome = await runCommand({ ...invocation, cwd: ctx.workspaceRoot, ...limits, signal: ctx.signal });
  if (outcome.kind !== 'exited') throw commandOutcomeError(uri, invocation, outcome, { ...limits, cwd: ctx.workspaceRoot });
  const failed = outcome.exitCode !== 0;
  if (failed && !invocation.allowFailure) throw commandFailedError(uri, invocation, outcome);

  const { note, ...content } = await outputContent(outcome.stdout, uri, ctx);
  const notes: Array<string | undefined> = [invocation.description];
  if (failed) {
    // The model should see why the run failed, not only that it did: stderr goes with stdout.
    notes.push(outcome.signal !== null ? `killed by ${outcome.signal}` : `exited with code ${outcome.exitCode}`);
    if (outcome.stderrBytes > 0 && 'text' in content) {
      content.text = appendStderr(content.text, outcome.stderr, outcome.stderrBytes);
      notes.push(`stderr follows stdout after a "${STDERR_SEPARATOR}" line`);
    } else if ('blob' in content) notes.push(stderrNote(outcome.stderr));
  }
  notes.push(note);
  const description = notes.filter((part) => part !== undefined && part !== '').join('; ');
  return { uri, name, ...content, ...(description !== '' ? { description } : {}) };
}

/**
 * The handler for commands: `cmd://git?arg=diff&arg=--cached` and `cmd:git diff --cached`. The
 * canonical URI is the input as given (trimmed), the name the command line. Each resolution runs
 * the program again, without a shell, in the workspace root, bounded in time and output.
 */
export function createCmdHandler(): AttachmentHandler {
  return {
    schemes: ['cmd'],

    async validate(input: string): Promise<string> {
      parseCmdUrl(input);
      return input.trim();
    },

    async resolve(declarations: readonly string[], ctx: HandlerContext): Promise<Resource[]> {
      // One after another: commands in one workspace may contend (git's index lock, a build dir).
      const unique = [...new Set(declarations.map((declaration) => declaration.trim()))];
      const resources: Resource[] = [];
      for (const declaration of unique) resources.push(await runDeclaration(declaration, ctx, resources.length));
      return resources;
    },

    async refresh(uri: string, ctx: HandlerContext): Promise<Resource> {
      return runDeclaration(uri, ctx, 0);
    },

    covers(declaration: string, uri: string): boolean {
      return declaration.trim() === uri;
    },
  };
}
