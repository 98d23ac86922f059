import { describe, expect, it } from 'vitest';
import { mapGoogleFinishReason } from './map-google-finish-reason.ts';

describe('mapGoogleFinishReason', () => {
  it('maps Gemini finish reasons to ours', () => {
    const reasons = ['STOP', 'MAX_TOKENS', 'SAFETY', 'RECITATION', 'PROHIBITED_CONTENT', 'SPII', 'MALFORMED_FUNCTION_CALL', 'LANGUAGE', 'OTHER'];
    expect(reasons.map((reason) => mapGoogleFinishReason(reason))).toEqual([
      'stop',
      'length',
      'content-filter',
      'content-filter',
      'content-filter',
      'content-filter',
      'error',
      'other',
      'other',
    ]);
  });

  it('reads STOP after function calls as tool-calls, but keeps other reasons', () => {
    expect(mapGoogleFinishReason('STOP', true)).toBe('tool-calls');
    expect(mapGoogleFinishReason('MAX_TOKENS', true)).toBe('length');
  });

  it('maps missing and unknown reasons to other', () => {
    expect([mapGoogleFinishReason(undefined), mapGoogleFinishReason(null), mapGoogleFinishReason('SOMETHING_NEW')]).toEqual(['other', 'other', 'other']);
  });
});
