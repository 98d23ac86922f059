import { quote } from 'shell-quote';

/** Words a shell reads as themselves; a `~` is safe anywhere but at the start. */
const PLAIN = /^[\w@%+=:,./-][\w@%+=:,./~-]*$/;

/**
 * The command as one line, the resource's `name`: `git diff --cached`. Plain words stay as they
 * are; any other word is quoted by shell-quote, so the line means the same to a shell and to the
 * `cmd:` form (`cmd:<name>` runs the same program with the same arguments).
 */
export function commandName(program: string, args: readonly string[]): string {
  return [program, ...args].map((word) => (PLAIN.test(word) ? word : quote([word]))).join(' ');
}
