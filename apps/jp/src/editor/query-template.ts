import { visibleText } from '../output/terminal-text.ts';

/**
 * The file the query is written in, laid out as `git commit` lays out its message: the query on
 * top, then a scissors line, and under it context that is never sent. Only the scissors line marks
 * the end, so a query may hold Markdown `#` headings.
 */
export const SCISSORS = '# ------------------------ >8 ------------------------';

/** What the template shows under the scissors. */
export interface TemplateContext {
  conversation: { id: string; title?: string | undefined } | undefined;
  model: string | undefined;
  /** The attachments this turn will carry: declarations it resolves and this invocation's `-a`. */
  attachments: readonly string[];
  /** The freshness notices this turn will send. */
  notices: readonly string[];
  /** The conversation's last answer, as stored. */
  lastAnswer: string | undefined;
}

/** The last answer is context, not a transcript: long ones are cut to their end. */
const LAST_ANSWER_LINES = 200;

function section(title: string, lines: readonly string[]): string[] {
  return lines.length === 0 ? [] : ['', `## ${title}`, '', ...lines];
}

/**
 * The template: `query` (a kept draft, or `-e TEXT`) above the scissors and the context below it.
 * Context comes from model output, file names and servers: its control characters are made visible,
 * since the file is opened in a terminal editor.
 */
export function renderTemplate(query: string, context: TemplateContext): string {
  const about: string[] = [];
  const { conversation } = context;
  about.push(conversation === undefined ? 'Conversation: a new one' : `Conversation: ${conversation.id}${conversation.title ? ` (${conversation.title})` : ''}`);
  about.push(`Model: ${context.model ?? '(none configured)'}`);
  let answer: string[] = [];
  if (context.lastAnswer !== undefined && context.lastAnswer.trim() !== '') {
    const lines = context.lastAnswer.replace(/\s+$/, '').split('\n');
    const cut = lines.length > LAST_ANSWER_LINES ? [`[… ${lines.length - LAST_ANSWER_LINES} earlier lines]`, ...lines.slice(-LAST_ANSWER_LINES)] : lines;
    answer = section('Last answer', cut);
  }
  const below = [
    SCISSORS,
    '# Do not modify or remove the line above.',
    '# Everything below it is ignored: write your query above it. An empty query aborts.',
    '',
    ...about,
    ...section('Attachments this turn carries', context.attachments.map((uri) => `- ${uri}`)),
    ...section('Notices the model will be sent', context.notices.map((notice) => `- ${notice}`)),
    ...answer,
  ].join('\n');
  const top = query.replace(/\s+$/, '');
  return `${top === '' ? '' : `${top}\n`}\n${visibleText(below)}\n`;
}

/** The query in an edited file: everything above the scissors line, trailing blank lines dropped. */
export function queryFromTemplate(text: string): string {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const at = lines.findIndex((line) => line.trimEnd() === SCISSORS);
  const kept = at === -1 ? lines : lines.slice(0, at);
  return kept.join('\n').replace(/\s+$/, '').replace(/^(?:[ \t]*\n)+/, '');
}
