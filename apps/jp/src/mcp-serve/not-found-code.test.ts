import { describe, expect, it } from 'vitest';
import { legacyNotFoundCode } from './not-found-code.ts';

describe('legacyNotFoundCode', () => {
  it("puts -32002 back on the SDK's not-found answer", () => {
    const message = { jsonrpc: '2.0' as const, id: 3, error: { code: -32602, message: 'no conversation x', data: { uri: 'jp://conversation/x' } } };
    expect(legacyNotFoundCode(message)).toEqual({ ...message, error: { ...message.error, code: -32002 } });
  });

  it('leaves other errors and results alone', () => {
    const invalid = { jsonrpc: '2.0' as const, id: 3, error: { code: -32602, message: 'bad uri', data: { uri: 'x', reason: 'invalid_uri' } } };
    const internal = { jsonrpc: '2.0' as const, id: 4, error: { code: -32603, message: 'damaged', data: { uri: 'x' } } };
    const result = { jsonrpc: '2.0' as const, id: 5, result: {} };
    for (const message of [invalid, internal, result]) expect(legacyNotFoundCode(message)).toBe(message);
  });
});
