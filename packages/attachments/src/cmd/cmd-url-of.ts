import type { CmdInvocation } from './cmd-invocation.ts';

/** Percent-encodes a program, keeping its `/` so `cmd:///usr/bin/env` and `cmd://./x.sh` stay readable. */
function encodeProgram(program: string): string {
  return program.split('/').map(encodeURIComponent).join('/');
}

/**
 * The `cmd://` form of an invocation, e.g. to show a user of the `cmd:` form how to set
 * `allow_failure`: `cmd://git?arg=diff&arg=--cached&allow_failure=true`.
 */
export function cmdUrlOf(invocation: Pick<CmdInvocation, 'program' | 'args' | 'allowFailure' | 'description'>): string {
  const params = invocation.args.map((arg) => `arg=${encodeURIComponent(arg)}`);
  if (invocation.allowFailure) params.push('allow_failure=true');
  if (invocation.description !== undefined) params.push(`description=${encodeURIComponent(invocation.description)}`);
  const query = params.length === 0 ? '' : `?${params.join('&')}`;
  return `cmd://${encodeProgram(invocation.program)}${query}`;
}
