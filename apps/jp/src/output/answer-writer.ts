import type { Output } from './output.ts';

/** Where an answer's text goes as it streams: written as it comes, or rendered (render/). */
export interface AnswerWriter {
  write(text: string): void | Promise<void>;
  /** The answer is complete (or cut short): whatever the writer holds is printed. */
  end(): void | Promise<void>;
  /** Whether the writer ends its own last line (a renderer does; the raw text may not). */
  readonly endsLines: boolean;
}

/** The part of a writer the renderer module gives. */
interface LoadedWriter {
  write(text: string): void;
  end(): void;
}

/**
 * The writer for one answer: the Markdown renderer on a terminal (`Output.rendersMarkdown`),
 * otherwise the exact text, as the conversation stores it. The renderer's module starts loading
 * here, before the request is sent, and is waited for only when the first text arrives: its load
 * overlaps the model's first-token latency instead of adding to it.
 */
export function openAnswerWriter(output: Output, render: boolean): AnswerWriter {
  if (!output.rendersMarkdown(render)) {
    return { write: (text) => output.write(text), end: () => undefined, endsLines: false };
  }
  let loaded: LoadedWriter | undefined;
  const loading = import('../render/markdown-writer.ts').then(({ markdownWriter }) => {
    loaded = markdownWriter((text) => output.writeStyled(text), { width: output.stdoutColumns, color: output.stdoutColor });
    return loaded;
  });
  // An answer that never comes (an error before any text) must not leave a rejected promise behind.
  loading.catch(() => undefined);
  return {
    write: (text) => (loaded !== undefined ? loaded.write(text) : loading.then((writer) => writer.write(text))),
    end: () => (loaded !== undefined ? loaded.end() : loading.then((writer) => writer.end())),
    endsLines: true,
  };
}
