import { AttachmentError } from '@jp/core';
import type { FetchLimits } from '../handler.ts';
import { networkError } from './network-error.ts';
import { redactUrl } from './normalize-http-url.ts';

export interface FetchLimitedOptions {
  limits: FetchLimits;
  /** Sent as `User-Agent`. */
  userAgent: string;
  /** The caller's abort (Ctrl-C); its reason is rethrown as is. */
  signal?: AbortSignal | undefined;
}

/** A successful (2xx) response read whole. */
export interface FetchedResponse {
  /** Where the content came from: the requested URL, or the last redirect target. */
  url: URL;
  /** Redirects followed to get there. */
  redirects: number;
  headers: Headers;
  bytes: Uint8Array;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const SETTING = 'conversation.attachment.http';

/** `10 MiB`, `64 KiB` or `1000 bytes`. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/**
 * `404 Not Found`: the standard reason phrase rather than the server's own. `node:http` is loaded
 * only here, when there is something to report (it costs start-up time otherwise).
 */
async function statusLine(response: Response): Promise<string> {
  const { STATUS_CODES } = await import('node:http');
  return `${response.status} ${STATUS_CODES[response.status] ?? response.statusText}`.trimEnd();
}

const seconds = (ms: number): string => `${Number((ms / 1000).toFixed(3))} s`;

function statusHint(status: number): string {
  if (status === 401 || status === 403 || status === 407) return 'the page needs a login or refuses jp; attach a public URL, or save the page and attach the file';
  if (status === 429) return 'the server is rate-limiting; try again later';
  if (status >= 500) return 'the server failed; try again later';
  if (status >= 400) return 'check the URL';
  return 'jp attaches only successful (2xx) responses';
}

/**
 * GETs a URL within the limits every fetch has: one deadline for the whole exchange (redirects,
 * headers, body), a body size cap enforced while streaming, and redirects followed by hand so each
 * target can be checked (http(s) only, no credentials, no loop, at most `maxRedirects`). Any
 * failure is one `AttachmentError` naming the requested URL; a caller's abort rethrows its reason.
 */
export async function fetchLimited(start: URL, options: FetchLimitedOptions): Promise<FetchedResponse> {
  const { limits } = options;
  const label = start.href;
  const deadline = AbortSignal.timeout(Math.max(1, Math.ceil(limits.timeoutMs)));
  const signal = options.signal === undefined ? deadline : AbortSignal.any([deadline, options.signal]);
  const chain: URL[] = [start];
  let current = start;
  const where = (): string => (current.href === label ? label : `${current.href} (redirected from ${label})`);

  try {
    for (;;) {
      const response = await fetch(current, {
        redirect: 'manual',
        signal,
        headers: { 'user-agent': options.userAgent, accept: '*/*' },
      });
      if (REDIRECT_STATUSES.has(response.status)) {
        await response.body?.cancel();
        const status = await statusLine(response);
        current = redirectTarget(response.headers.get('location'), { status, current, chain, maxRedirects: limits.maxRedirects, label, from: where() });
        chain.push(current);
        continue;
      }
      if (response.status < 200 || response.status > 299) {
        await response.body?.cancel();
        throw new AttachmentError(label, `GET ${where()} returned ${await statusLine(response)}; ${statusHint(response.status)}`, {
          code: 'http_status',
        });
      }
      const bytes = await readCapped(response, limits.maxBytes, label, where());
      return { url: current, redirects: chain.length - 1, headers: response.headers, bytes };
    }
  } catch (error) {
    if (error instanceof AttachmentError) throw error;
    if (options.signal?.aborted === true) throw options.signal.reason;
    if (deadline.aborted) {
      throw new AttachmentError(label, `GET ${where()} timed out after ${seconds(limits.timeoutMs)}; raise ${SETTING}.timeout_secs or try again later`, {
        code: 'http_timeout',
        cause: error,
      });
    }
    throw networkError(label, where(), current, error);
  }
}

/** The checked next URL of a redirect, or an `AttachmentError` saying why it is not followed. */
function redirectTarget(
  location: string | null,
  hop: { status: string; current: URL; chain: readonly URL[]; maxRedirects: number; label: string; from: string },
): URL {
  const { status, current, chain, maxRedirects, label, from } = hop;
  const fail = (message: string, code = 'http_redirect'): never => {
    throw new AttachmentError(label, message, { code });
  };
  if (location === null || location.trim() === '') return fail(`GET ${from} returned ${status} without a Location header; attach the page it should lead to`);
  let next: URL;
  try {
    next = new URL(location.trim(), current);
  } catch {
    return fail(`GET ${from} returned ${status} to an invalid Location "${redactUrl(location)}"; attach the page it should lead to`);
  }
  const shown = redactUrl(next.href);
  if (next.protocol !== 'http:' && next.protocol !== 'https:') {
    return fail(`${from} redirects to ${shown}, which is not http or https; jp follows redirects to http(s) URLs only`);
  }
  if (next.username !== '' || next.password !== '') {
    return fail(`${from} redirects to ${shown}, a URL with a user name or password that would be stored in the conversation; jp does not follow it`);
  }
  next.hash = '';
  const seenAt = chain.findIndex((url) => url.href === next.href);
  if (seenAt !== -1) {
    const loop = [...chain.slice(seenAt), next].map((url) => url.href).join(' → ');
    return fail(`${label} redirects in a loop (${loop}); the server is misconfigured, attach another URL`, 'http_redirect_loop');
  }
  if (chain.length > maxRedirects) {
    const rule = maxRedirects === 0 ? 'and following redirects is off' : `more than ${maxRedirects} times`;
    return fail(`${label} redirects ${rule} (the last to ${shown}); raise ${SETTING}.max_redirects or attach the final URL`, 'http_redirect_limit');
  }
  return next;
}

/**
 * The body, refused before reading when `Content-Length` is over `maxBytes`, and cut off (the
 * stream cancelled, which closes the connection) as soon as more than `maxBytes` arrived.
 */
async function readCapped(response: Response, maxBytes: number, label: string, where: string): Promise<Uint8Array> {
  const tooLarge = (detail: string): AttachmentError =>
    new AttachmentError(label, `${where} is larger than the limit of ${formatBytes(maxBytes)} (${detail}); raise ${SETTING}.max_bytes to attach it`, {
      code: 'http_too_large',
    });
  const declared = response.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > maxBytes) {
    await response.body?.cancel();
    throw tooLarge(`Content-Length says ${declared.trim()} bytes`);
  }
  if (response.body === null) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge(`more than ${maxBytes} bytes arrived`);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
