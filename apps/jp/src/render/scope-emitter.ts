import type { Emitter } from 'highlight.js';

export const CLOSE = null;

/** Text, a scope opened (by its kind, as the renderer's styles name it), or the innermost one closed. */
export type ScopePart = string | { open: string } | typeof CLOSE;

/**
 * The kind a highlight.js scope is painted as: the first class highlight.js's HTML gives it
 * (`title.function` is `title`), so the terminal paints exactly what the page's classes say.
 */
const kindOf = (scope: string) => (scope.startsWith('language:') ? scope.replace('language:', 'language-') : scope.split(/[.\s]/)[0]!.replace(/_$/, ''));

/**
 * An emitter for highlight.js (its `__emitter` option, as lowlight uses) that keeps the tokens as
 * a flat list of text and scope changes instead of building HTML that would be read back.
 * Adjacent texts are joined, as they are in the HTML, so each run is painted in one piece.
 */
export class ScopeEmitter implements Emitter {
  readonly parts: ScopePart[] = [];
  private depth = 0;

  addText(text: string): void {
    if (text === '') return;
    const last = this.parts.length - 1;
    if (typeof this.parts[last] === 'string') this.parts[last] += text;
    else this.parts.push(text);
  }

  startScope(scope: string): void {
    this.parts.push({ open: kindOf(scope) });
    this.depth += 1;
  }

  endScope(): void {
    if (this.depth === 0) return;
    this.parts.push(CLOSE);
    this.depth -= 1;
  }

  // highlight.js's parser also calls the token tree's names for the same two steps.
  openNode(scope: string): void {
    this.startScope(scope);
  }

  closeNode(): void {
    this.endScope();
  }

  __addSublanguage(emitter: Emitter, language: string): void {
    if (language) this.parts.push({ open: kindOf(`language:${language}`) });
    for (const part of (emitter as ScopeEmitter).parts) {
      if (typeof part === 'string') this.addText(part);
      else this.parts.push(part);
    }
    if (language) this.parts.push(CLOSE);
  }

  finalize(): void {
    while (this.depth > 0) this.endScope();
  }

  toHTML(): string {
    return '';
  }
}
