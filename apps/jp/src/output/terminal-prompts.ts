import { withTerminal } from './terminal-handover.ts';
import { visibleText } from './terminal-text.ts';

/**
 * The questions jp asks on the terminal, drawn on stderr by `@inquirer/prompts` (loaded only when
 * one is asked). Inquirer draws with escape sequences of its own, so its stream cannot be filtered
 * the way `Output` filters; instead every text it is given to show — the message, the choices, a
 * default — is made visible here first (terminal-text.ts). What the person picks is returned exactly.
 * Each question takes the terminal from whoever holds its keys meanwhile (terminal-handover.ts).
 */

const io = () => ({ input: process.stdin, output: process.stderr });

export async function promptConfirm(message: string, defaultValue?: boolean): Promise<boolean> {
  const { confirm } = await import('@inquirer/prompts');
  return withTerminal(() => confirm({ message: visibleText(message), default: defaultValue }, io()));
}

export async function promptSelect<T>(message: string, choices: readonly { name: string; value: T }[], defaultValue?: T): Promise<T> {
  const { select } = await import('@inquirer/prompts');
  const shown = choices.map((choice) => ({ name: visibleText(choice.name), value: choice.value }));
  return withTerminal(() => select<T>({ message: visibleText(message), choices: shown, default: defaultValue }, io()));
}

/**
 * A line of input. A default that would have to be changed to be shown is shown in the message
 * instead, and an empty answer still gives it back exactly.
 */
export async function promptInput(message: string, defaultValue?: string): Promise<string> {
  const { input } = await import('@inquirer/prompts');
  if (defaultValue === undefined || visibleText(defaultValue) === defaultValue) {
    return withTerminal(() => input({ message: visibleText(message), default: defaultValue }, io()));
  }
  const answer = await withTerminal(() => input({ message: `${visibleText(message)} (empty for ${visibleText(defaultValue)})` }, io()));
  return answer === '' ? defaultValue : answer;
}

/** $EDITOR on a file holding `template`; the message is what is shown on the terminal. */
export async function promptEditor(message: string, template: string, postfix: string): Promise<string> {
  const { editor } = await import('@inquirer/prompts');
  return withTerminal(() => editor({ message: visibleText(message), default: template, postfix }, io()));
}
