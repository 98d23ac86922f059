import { AttachmentError, type Resource } from '@jp/core';
import type { AttachmentHandler, HandlerContext } from './handler.ts';
import { settledResources } from './unique-by-uri.ts';
import { schemeOf } from './uri-scheme.ts';

/**
 * Picks the handler for an attachment by its URI scheme, as `llm` picks fragment loaders by
 * prefix. A handler claims exact schemes (`file`, `https`) or a family by a prefix ending in `+`
 * (`mcp+` claims `mcp+everything+demo://…`). Inputs without a scheme (paths, `./x`, `~/x`, globs)
 * go to the handler that owns `file`.
 */
export class AttachmentRegistry {
  readonly #exact = new Map<string, AttachmentHandler>();
  readonly #prefixes: { prefix: string; handler: AttachmentHandler }[] = [];
  readonly #fileHandler: AttachmentHandler | undefined;

  constructor(handlers: readonly AttachmentHandler[]) {
    for (const handler of handlers) {
      for (const claimed of handler.schemes) {
        const scheme = claimed.toLowerCase();
        if (this.#exact.has(scheme) || this.#prefixes.some((entry) => entry.prefix === scheme)) {
          throw new Error(`two attachment handlers claim the scheme ${scheme}`);
        }
        if (scheme.endsWith('+')) this.#prefixes.push({ prefix: scheme, handler });
        else this.#exact.set(scheme, handler);
      }
    }
    // Longest prefix first, so `mcp+local+` could refine `mcp+`.
    this.#prefixes.sort((a, b) => b.prefix.length - a.prefix.length);
    this.#fileHandler = this.#exact.get('file');
  }

  /** The schemes handled, as a user would write them: `file:`, `https:`, `mcp+<…>:`. */
  get schemes(): string[] {
    return [...[...this.#exact.keys()].map((scheme) => `${scheme}:`), ...this.#prefixes.map(({ prefix }) => `${prefix}<…>:`)];
  }

  #lookup(input: string): AttachmentHandler | undefined {
    // A family claims everything spelled with its prefix, even input that is not a valid URI
    // (`mcp+my_server+x`), so its handler can say what is wrong instead of the file handler.
    const lower = input.trimStart().toLowerCase();
    const family = this.#prefixes.find(({ prefix }) => lower.startsWith(prefix));
    if (family !== undefined) return family.handler;
    const scheme = schemeOf(input);
    if (scheme === undefined) return this.#fileHandler;
    return this.#exact.get(scheme) ?? this.#prefixes.find(({ prefix }) => scheme.startsWith(prefix))?.handler;
  }

  /** The handler for an input or declaration; an `AttachmentError` naming the supported schemes when none fits. */
  handlerFor(input: string): AttachmentHandler {
    if (input.trim() === '') throw new AttachmentError(input, 'empty attachment; give a path, glob or URL', { code: 'attachment_empty' });
    const handler = this.#lookup(input);
    if (handler !== undefined) return handler;
    const scheme = schemeOf(input);
    if (scheme === undefined) {
      throw new AttachmentError(input, `cannot attach ${input}: no handler for file paths is registered`, { code: 'attachment_unsupported' });
    }
    const pathHint = input.includes('://') ? '' : ` (for a file whose name has a colon, write ./${input})`;
    throw new AttachmentError(
      input,
      `unsupported attachment scheme "${scheme}:" in ${input}; supported: ${this.schemes.join(', ')} and plain paths or globs${pathHint}`,
      { code: 'attachment_unsupported_scheme' },
    );
  }

  /** The handler that produced a canonical resource URI, or `undefined` when no handler claims its scheme. */
  handlerForUri(uri: string): AttachmentHandler | undefined {
    return uri === '' ? undefined : this.#lookup(uri);
  }

  /** Checks an input and returns its declaration (see `AttachmentHandler.validate`). */
  async validate(input: string, ctx: HandlerContext): Promise<string> {
    return this.handlerFor(input).validate(input, ctx);
  }

  /**
   * Resolves declarations to resources in declaration order. Consecutive declarations of one
   * handler go to it in one call; the calls run concurrently, and the first failure in
   * declaration order is the one thrown. A URI that two declarations produce is kept once.
   */
  async resolve(declarations: readonly string[], ctx: HandlerContext): Promise<Resource[]> {
    const runs: { handler: AttachmentHandler; declarations: string[] }[] = [];
    for (const declaration of declarations) {
      const handler = this.handlerFor(declaration);
      const last = runs.at(-1);
      if (last !== undefined && last.handler === handler) last.declarations.push(declaration);
      else runs.push({ handler, declarations: [declaration] });
    }
    const resolving = runs.map((run) => {
      // Progress hears when each declaration starts and ends, so it can tell how long a slow one takes.
      const ends = run.declarations.map((declaration) => ctx.progress?.begin?.(declaration));
      return run.handler.resolve(run.declarations, ctx).finally(() => ends.forEach((end) => end?.()));
    });
    return settledResources(await Promise.allSettled(resolving));
  }

  /** Re-reads one canonical URI through the handler owning its scheme. */
  async refresh(uri: string, ctx: HandlerContext): Promise<Resource> {
    const handler = this.handlerForUri(uri);
    if (handler === undefined) {
      throw new AttachmentError(uri, `cannot refresh ${uri}: no attachment handler owns its scheme`, { code: 'attachment_not_refreshable' });
    }
    return handler.refresh(uri, ctx);
  }

  /** Whether a canonical URI came from a declaration; `false` when no handler takes the declaration. */
  covers(declaration: string, uri: string, ctx: HandlerContext): boolean {
    const handler = declaration.trim() === '' ? undefined : this.#lookup(declaration);
    return handler !== undefined && handler.covers(declaration, uri, ctx);
  }
}

export function createRegistry(handlers: readonly AttachmentHandler[]): AttachmentRegistry {
  return new AttachmentRegistry(handlers);
}
