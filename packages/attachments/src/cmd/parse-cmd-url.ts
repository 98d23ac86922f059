import { AttachmentError } from '@jp/core';
import type { CmdInvocation } from './cmd-invocation.ts';
import { parseCommandLine } from './parse-command-line.ts';

const URL_FORM = /^cmd:\/\//i;
const LINE_FORM = /^cmd:/i;
const PARAMS = 'arg, allow_failure, description';

function syntaxError(input: string, message: string): AttachmentError {
  return new AttachmentError(input, `${input}: ${message}`, { code: 'cmd_syntax' });
}

/** Percent-decoding of one URL component; `+` stays a plus (RFC 3986, not form encoding). */
function decode(component: string, input: string): string {
  try {
    return decodeURIComponent(component);
  } catch {
    throw syntaxError(input, `malformed percent-encoding in "${component}"; write a literal % as %25`);
  }
}

/** `cmd://<program>?arg=a&arg=b[&allow_failure=true][&description=…]`. */
function parseUrlForm(rest: string, input: string): CmdInvocation {
  if (rest.includes('#')) throw syntaxError(input, 'a cmd:// URL has no fragment; write # inside an argument as %23');
  const question = rest.indexOf('?');
  const program = decode(question === -1 ? rest : rest.slice(0, question), input);
  if (program === '') throw syntaxError(input, 'no program named; write cmd://<program>?arg=…, e.g. cmd://git?arg=status');
  const invocation: CmdInvocation = { program, args: [], allowFailure: false, form: 'url' };
  const seen = new Set<string>();
  const query = question === -1 ? '' : rest.slice(question + 1);
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const name = decode(equals === -1 ? pair : pair.slice(0, equals), input);
    const value = equals === -1 ? '' : decode(pair.slice(equals + 1), input);
    if (name === 'arg') {
      invocation.args.push(value);
      continue;
    }
    if (name !== 'allow_failure' && name !== 'description') {
      throw syntaxError(input, `unknown parameter "${name}"; a cmd:// URL takes ${PARAMS}`);
    }
    if (seen.has(name)) throw syntaxError(input, `"${name}" is given twice; give it once`);
    seen.add(name);
    if (name === 'description') {
      invocation.description = value;
    } else if (value === 'true' || value === 'false') {
      invocation.allowFailure = value === 'true';
    } else {
      throw syntaxError(input, `allow_failure must be true or false, not "${value}"`);
    }
  }
  return invocation;
}

/** `cmd:<command line>`, split like a shell would but run without one; no parameters. */
function parseLineForm(line: string, input: string): CmdInvocation {
  const [program, ...args] = parseCommandLine(line, input);
  if (program === undefined) throw syntaxError(input, 'no command given; write cmd:<program> <args>, e.g. cmd:git status');
  if (program === '') throw syntaxError(input, 'the program name is empty; write cmd:<program> <args>');
  return { program, args, allowFailure: false, form: 'line' };
}

/**
 * Parses both forms of a cmd attachment into the program, its arguments and the URL's options.
 * Pure: nothing is looked up or run. Errors are `AttachmentError`s naming the input (trimmed).
 */
export function parseCmdUrl(input: string): CmdInvocation {
  const trimmed = input.trim();
  let invocation: CmdInvocation;
  if (URL_FORM.test(trimmed)) invocation = parseUrlForm(trimmed.slice('cmd://'.length), trimmed);
  else if (LINE_FORM.test(trimmed)) invocation = parseLineForm(trimmed.slice('cmd:'.length), trimmed);
  else throw syntaxError(trimmed, 'not a cmd attachment; write cmd:<command line> or cmd://<program>?arg=…');
  if ([invocation.program, ...invocation.args].some((word) => word.includes('\0'))) {
    throw syntaxError(trimmed, 'a program or argument contains a NUL byte, which no process can receive; remove it');
  }
  return invocation;
}
