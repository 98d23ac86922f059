// Canonical JSON for the strict stand-ins: what "the same bytes" means when a vendor says key order
// and cache markers do not count. Also the one token estimate every stand-in uses.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * JSON with object keys sorted and every `cache_control` key left out, so two requests that differ
 * only in key order or cache breakpoints serialise to the same string.
 * @param {unknown} value
 * @returns {string}
 */
export function canonicalJson(value) {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([key, inner]) => key !== 'cache_control' && inner !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonicalJson(inner)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** @param {string} text */
export const sha256 = (text) => createHash('sha256').update(text).digest('base64url');

/**
 * The stand-ins' token estimate: ceil(characters / 4) of the canonical JSON. Not a tokenizer;
 * consistent, so cache arithmetic and "tokens missed" add up across requests.
 * @param {unknown} value
 */
export const estimateTokens = (value) => Math.ceil(canonicalJson(value).length / 4);

/**
 * @param {string} secret
 * @param {string} payload
 */
export const hmac = (secret, payload) => createHmac('sha256', secret).update(payload).digest('base64url');

/**
 * @param {string} a
 * @param {string} b
 */
export function sameMac(a, b) {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
