import type { Resource } from '@jp/core';
import type { AttachmentHandler, HandlerContext } from '../handler.ts';
import { fetchHttpResource } from './fetch-http-resource.ts';
import { normalizeHttpUrl } from './normalize-http-url.ts';

export interface HttpHandlerOptions {
  /** `User-Agent` of every request (default `jp`); the app may add its version. */
  userAgent?: string;
}

/** Set as the abort reason of the fetches still running when a sibling failed. */
const CANCELLED = new Error('cancelled: another attachment failed');

/**
 * Fetches every declaration concurrently. The first failure cancels the rest, and the error
 * thrown is the first real failure in declaration order (never a cancellation it caused).
 */
async function fetchAll(urls: readonly string[], ctx: HandlerContext, userAgent: string): Promise<Resource[]> {
  const stop = new AbortController();
  const signal = ctx.signal === undefined ? stop.signal : AbortSignal.any([ctx.signal, stop.signal]);
  let done = 0;
  const settled = await Promise.allSettled(
    urls.map(async (url) => {
      ctx.progress?.update(done, url);
      try {
        return await fetchHttpResource(url, ctx, { userAgent, signal });
      } catch (error) {
        stop.abort(CANCELLED);
        throw error;
      } finally {
        done++;
      }
    }),
  );
  const resources: Resource[] = [];
  for (const outcome of settled) {
    if (outcome.status === 'fulfilled') resources.push(outcome.value);
  }
  const failure = settled.find((outcome) => outcome.status === 'rejected' && outcome.reason !== CANCELLED);
  if (failure !== undefined && failure.status === 'rejected') throw failure.reason;
  return resources;
}

/**
 * The handler for `http:` and `https:` URLs: Node's built-in fetch within the context's fetch
 * limits (size, time, redirects). Declarations and resource URIs are the normalised URL (see
 * `parseHttpUrl`); a URL with credentials is refused before anything is stored.
 */
export function createHttpHandler(options: HttpHandlerOptions = {}): AttachmentHandler {
  const userAgent = options.userAgent ?? 'jp';
  return {
    schemes: ['http', 'https'],

    async validate(input: string): Promise<string> {
      return normalizeHttpUrl(input);
    },

    async resolve(declarations: readonly string[], ctx: HandlerContext): Promise<Resource[]> {
      const urls = [...new Set(declarations.map((declaration) => normalizeHttpUrl(declaration)))];
      return fetchAll(urls, ctx, userAgent);
    },

    async refresh(uri: string, ctx: HandlerContext): Promise<Resource> {
      return fetchHttpResource(uri, ctx, { userAgent, signal: ctx.signal });
    },

    covers(declaration: string, uri: string): boolean {
      try {
        return normalizeHttpUrl(declaration) === normalizeHttpUrl(uri);
      } catch {
        return false;
      }
    },
  };
}
