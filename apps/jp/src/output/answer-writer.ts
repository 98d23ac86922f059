import type { Output } from './output.ts';

/** Where an answer's text goes as it streams: written as it comes, or rendered (render/). */
export interface AnswerWriter {
  write(text: string): void;
  /** The answer is complete (or cut short): whatever the writer holds is printed. */
  end(): void;
  /** Whether the writer ends its own last line (a renderer does; the raw text may not). */
  readonly endsLines: boolean;
}

/**
 * The writer for one answer: the Markdown renderer, loaded only when it is used, on a terminal
 * (`Output.rendersMarkdown`); otherwise the exact text, as the conversation stores it.
 */
export async function openAnswerWriter(output: Output, render: boolean): Promise<AnswerWriter> {
  if (!output.rendersMarkdown(render)) {
    return { write: (text) => output.write(text), end: () => undefined, endsLines: false };
  }
  const { markdownWriter } = await import('../render/markdown-writer.ts');
  return markdownWriter((text) => output.writeStyled(text), { width: output.stdoutColumns, color: output.stdoutColor });
}
