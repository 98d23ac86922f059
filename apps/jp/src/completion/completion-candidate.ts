import { visibleText } from '../output/terminal-text.ts';

/** One value a shell may offer, with what it shows beside it. */
export interface CompletionCandidate {
  value: string;
  description?: string | undefined;
}

/** Line breaks and tabs end a candidate or its value: in a description they become spaces. */
const SEPARATORS = /[\t\n\r\v\f\u2028\u2029]+/g;
const HAS_SEPARATOR = /[\t\n\r\v\f\u2028\u2029]/;

/**
 * The line `jp __complete` prints for a candidate: `value`, or `value<TAB>description`. Values and
 * descriptions come from stored titles, config files and declarations, so neither may carry what a
 * terminal acts on (they are printed into the user's prompt line): separators become spaces and
 * every other control is written visibly. A value that had to change is left out instead, since
 * the shell would insert something the user never stored.
 */
export function candidateLine(candidate: CompletionCandidate): string | undefined {
  const value = candidate.value;
  if (value === '' || HAS_SEPARATOR.test(value) || visibleText(value) !== value) return undefined;
  const description = candidate.description === undefined ? '' : visibleText(candidate.description.replace(SEPARATORS, ' ').trim());
  return description === '' ? value : `${value}\t${description.length > 80 ? `${description.slice(0, 79)}…` : description}`;
}
