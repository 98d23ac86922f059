import { describe, expect, it } from 'vitest';
import { isConnectionRefused, isLoopbackUrl } from './refused-loopback.ts';

describe('isLoopbackUrl', () => {
  it.each([
    'http://127.0.0.1:11434/v1',
    'http://127.1.2.3/',
    'http://localhost:8080',
    'http://LOCALHOST:8080',
    'http://api.localhost/',
    'http://[::1]:11434/v1',
  ])('%s is this machine', (url) => expect(isLoopbackUrl(url)).toBe(true));

  it.each(['https://api.anthropic.com', 'http://10.0.0.5:11434/v1', 'http://128.0.0.1/', 'http://localhost.example.com/', 'http://[::2]/', 'not a url'])(
    '%s is not',
    (url) => expect(isLoopbackUrl(url)).toBe(false),
  );
});

describe('isConnectionRefused', () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });

  it('finds ECONNREFUSED however the SDK wraps it', () => {
    const fetchFailed = new TypeError('fetch failed', { cause: refused });
    const sdk = Object.assign(new Error('Connection error.', { cause: fetchFailed }), { name: 'APIConnectionError' });
    expect(isConnectionRefused(refused)).toBe(true);
    expect(isConnectionRefused(fetchFailed)).toBe(true);
    expect(isConnectionRefused(sdk)).toBe(true);
    expect(isConnectionRefused(new TypeError('fetch failed', { cause: new AggregateError([new Error('x'), refused]) }))).toBe(true);
  });

  it('is false for other connection failures', () => {
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    expect(isConnectionRefused(new TypeError('fetch failed', { cause: reset }))).toBe(false);
    expect(isConnectionRefused(new TypeError('terminated'))).toBe(false);
    expect(isConnectionRefused('ECONNREFUSED')).toBe(false);
  });
});
