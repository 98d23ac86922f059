import { hostname } from 'node:os';
import type { Output } from '../output/output.ts';
import type { LockOwner } from './conversation-lock.ts';

/** `16:40:12` for an ISO time of today, the date too otherwise; the text as given when it is not a time. */
function clockTime(iso: string | undefined, now = new Date()): string {
  const at = iso === undefined ? undefined : new Date(iso);
  if (at === undefined || Number.isNaN(at.getTime())) return iso ?? 'an unknown time';
  const time = at.toTimeString().slice(0, 8);
  return at.toDateString() === now.toDateString() ? time : `${at.toISOString().slice(0, 10)} ${time}`;
}

/**
 * The one line jp says when it has waited a second for a conversation's lock (issue W): who holds
 * it and since when, and how long jp will wait. Shown on a terminal (as retries are, RFD 010); with
 * `-v` anywhere; otherwise the error that ends a wait that runs out says it.
 */
export function lockWaitNotice(output: Output, options: { what: string; timeoutMs: number; verbose: boolean }): ((owner: LockOwner | undefined) => void) | undefined {
  const show = output.drawsStatus ? (text: string) => output.note(text) : options.verbose ? (text: string) => output.detail(text) : undefined;
  if (show === undefined) return undefined;
  const seconds = (options.timeoutMs / 1000).toFixed(options.timeoutMs % 1000 === 0 ? 0 : 1);
  return (owner) => {
    const holder = owner === undefined ? 'another process' : `process ${owner.pid}${owner.host === hostname() ? '' : ` on ${owner.host}`} (since ${clockTime(owner.since)})`;
    show(`jp: waiting for ${options.what}: ${holder} is using it; waiting up to ${seconds} s (--lock-timeout SECS)`);
  };
}

/** The notice for a conversation's lock, as a command in a workspace passes it to `ConversationStore.lock`. */
export function conversationWaitNotice(ctx: { output: Output; globals: { verbose: boolean } }, id: string, timeoutMs: number): ((owner: LockOwner | undefined) => void) | undefined {
  return lockWaitNotice(ctx.output, { what: `conversation ${id}`, timeoutMs, verbose: ctx.globals.verbose });
}
