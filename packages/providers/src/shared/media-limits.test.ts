import { describe, expect, it } from 'vitest';
import { blobResource, PNG_BYTES, turn } from '../__fixtures__/conversation.ts';
import { convertToAnthropicRequest } from '../anthropic/convert-to-anthropic-request.ts';
import { convertToGoogleRequest } from '../google/convert-to-google-request.ts';
import { convertToOpenAIRequest } from '../openai/convert-to-openai-request.ts';
import { mediaRefusal } from './media-limits.ts';

const MB = 1024 * 1024;
/** A PNG of `bytes` bytes: the signature, then zeros. */
const png = (bytes: number, extra = {}) => {
  const data = new Uint8Array(bytes);
  data.set(PNG_BYTES);
  return blobResource('file:///w/big.png', 'image/png', data, extra);
};

describe('media limits (RFD 031)', () => {
  it("an image over a vendor's documented limit is named with the limit; one under it passes", () => {
    expect(mediaRefusal(png(3 * MB), 'image', 'anthropic')).toBeUndefined();
    expect(mediaRefusal(png(4 * MB), 'image', 'anthropic')).toBe(
      "file:///w/big.png is 5.3 MB as sent, over anthropic's 5 MB image limit (platform.claude.com/docs/en/build-with-claude/vision); not sent",
    );
    expect(mediaRefusal(png(4 * MB), 'image', 'openai')).toBeUndefined();
    expect(mediaRefusal(png(16 * MB), 'image', 'google')).toMatch(/over google's 20 MB image limit/);
    expect(mediaRefusal(png(16 * MB), 'image', 'ollama')).toBeUndefined();
  });

  it('a blob the size policy cut is never sent as an image or PDF', () => {
    const cut = png(100, { description: 'truncated: the first 100 of 5000 bytes (conversation.attachment.size_policy is "truncate", limit 100 bytes)' });
    expect(mediaRefusal(cut, 'image', 'ollama')).toMatch(/^file:\/\/\/w\/big\.png was cut by the size policy, so it is not a whole image; not sent/);
    for (const body of [
      JSON.stringify(convertToAnthropicRequest({ model: 'm', events: turn('see', [cut]) })),
      JSON.stringify(convertToOpenAIRequest({ model: 'm', events: turn('see', [cut]) })),
      JSON.stringify(convertToGoogleRequest({ model: 'm', events: turn('see', [cut]) })),
    ]) {
      expect(body).not.toContain('iVBORw0KGgo');
      expect(body).toContain('was cut by the size policy');
    }
  });
});
