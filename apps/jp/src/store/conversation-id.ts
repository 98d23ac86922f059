import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * A new conversation id: 9 base-36 digits of the creation time in milliseconds (fixed width, so
 * ids sort by time as strings) and 5 random base-36 characters, e.g. `0mhz3k1ab-x7k2q`. Uniqueness
 * under concurrent creation is finally guaranteed by the store, which creates the directory with
 * an atomic rename and retries with a fresh id on collision.
 */
export function newConversationId(now: number = Date.now()): string {
  const time = now.toString(36).padStart(9, '0');
  const bytes = randomBytes(5);
  let suffix = '';
  for (const byte of bytes) suffix += ALPHABET[byte % 36];
  return `${time}-${suffix}`;
}

export const CONVERSATION_ID_PATTERN = /^[0-9a-z]{9}-[0-9a-z]{5}$/;

export function isConversationId(value: string): boolean {
  return CONVERSATION_ID_PATTERN.test(value);
}
