// Signatures of the thinking blocks the strict stand-in emits: an HMAC (per-server secret) over a small
// payload that records the model, the block's prefix, its text and the signature of the thinking block
// before it, so the stand-in can check a replayed block as the API does (preserved-thinking#how-it-works).
import { hmac, sameMac, sha256 } from '../canonical-json.mjs';

const PREFIX = 'jpsig1';

/**
 * @typedef {object} SignaturePayload
 * @property {string} model
 * @property {number} rank
 * @property {string} system
 * @property {string} tools
 * @property {string} prefix
 * @property {string | null} previous  hash of the previous thinking block's signature, null for the first
 * @property {string} text  hash of the thinking text as emitted
 * @property {boolean} omitted  the text was emitted empty (display "omitted"): edits to it are ignored
 */

/**
 * @param {string} secret
 * @param {SignaturePayload} payload
 */
export function signThinking(secret, payload) {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${PREFIX}.${body}.${hmac(secret, body)}`;
}

/**
 * The payload of a signature this server issued, or undefined for a truncated, edited, empty or foreign one.
 * @param {string} secret
 * @param {unknown} signature
 * @returns {SignaturePayload | undefined}
 */
export function verifyThinking(secret, signature) {
  if (typeof signature !== 'string') return undefined;
  const [prefix, body, mac] = signature.split('.');
  if (prefix !== PREFIX || body === undefined || mac === undefined || !sameMac(mac, hmac(secret, body))) return undefined;
  try {
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

/** @param {string} signature */
export const signatureHash = (signature) => sha256(signature);

/** @param {string} text */
export const textHash = (text) => sha256(text);
