import fs from 'node:fs';
import path from 'node:path';
import { AttachmentError, ExitCode, JpError } from '@jp/core';
import type { CmdInvocation } from './cmd-invocation.ts';
import { cmdUrlOf } from './cmd-url-of.ts';
import type { CommandOutcome } from './run-command.ts';
import { stderrTail } from './stderr-tail.ts';

type Failure = Exclude<CommandOutcome, { kind: 'exited' }>;

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

/** How to attach a failing command's output anyway, in the form the user wrote. */
function allowFailureHint(input: string, invocation: CmdInvocation): string {
  if (invocation.form === 'url') return `add &allow_failure=true to ${input}`;
  return `use ${cmdUrlOf({ ...invocation, allowFailure: true })}`;
}

/** A command that exited non-zero or died of a signal it did not get from us. */
export function commandFailedError(input: string, invocation: CmdInvocation, outcome: Extract<CommandOutcome, { kind: 'exited' }>): AttachmentError {
  const how = outcome.signal !== null ? `was killed by ${outcome.signal}` : `exited with code ${outcome.exitCode ?? 'unknown'}`;
  const tail = stderrTail(outcome.stderr);
  const said = tail === '' ? ' (no stderr)' : `: ${tail}`;
  return new AttachmentError(
    input,
    `${input} ${how}${said}; fix the command, or to attach its output anyway ${allowFailureHint(input, invocation)}`,
    { code: 'cmd_failed' },
  );
}

function spawnError(input: string, invocation: CmdInvocation, cwd: string, error: NodeJS.ErrnoException): AttachmentError {
  const { program } = invocation;
  const isPath = program.includes('/');
  const options = { code: 'cmd_not_runnable', cause: error };
  if (error.code === 'ENOENT' || error.code === 'ENOTDIR') {
    if (!isPath) return new AttachmentError(input, `${input}: program ${program} not found on PATH; install it or check its name`, { ...options, code: 'cmd_not_found' });
    // execve says ENOENT for a script whose #! interpreter is missing, too.
    if (fs.existsSync(path.resolve(cwd, program))) {
      return new AttachmentError(input, `${input}: ${program} exists but its interpreter (the #! line) was not found; fix the #! line`, options);
    }
    return new AttachmentError(input, `${input}: program ${program} not found (paths start at the workspace root); check the path`, { ...options, code: 'cmd_not_found' });
  }
  if (error.code === 'EACCES' || error.code === 'EPERM') {
    return new AttachmentError(input, `${input}: ${program} is not executable (permission denied); make it executable or name its interpreter as the program`, options);
  }
  return new AttachmentError(input, `${input}: cannot run ${program}: ${error.code ?? error.message}`, options);
}

/** The error for a run that produced no usable output: not started, timed out, too much output, aborted. */
export function commandOutcomeError(input: string, invocation: CmdInvocation, outcome: Failure, limits: { timeoutMs: number; maxOutputBytes: number; cwd: string }): JpError {
  switch (outcome.kind) {
    case 'timeout':
      return new AttachmentError(input, `${input} timed out after ${seconds(limits.timeoutMs)}; raise conversation.attachment.cmd.timeout_secs`, {
        code: 'cmd_timeout',
      });
    case 'output_limit':
      return new AttachmentError(
        input,
        `${input} wrote more than ${limits.maxOutputBytes} bytes to stdout and was stopped; narrow the command or raise conversation.attachment.cmd.max_output_bytes`,
        { code: 'cmd_output_limit' },
      );
    case 'aborted':
      return new JpError(`${input} was interrupted`, { exitCode: ExitCode.interrupted, code: 'interrupted' });
    case 'spawn_failed':
      return spawnError(input, invocation, limits.cwd, outcome.error);
  }
}
