import { openaiResponsesTextStream } from '@jp/test-server';
import { describe, expect, it } from 'vitest';
import { collect } from '../__fixtures__/collect-stream.ts';
import { turn } from '../__fixtures__/conversation.ts';
import { useWireServer } from '../__fixtures__/use-wire-server.ts';
import { createOpenAIProvider } from '../openai/openai-provider.ts';
import { splitUrlCredentials } from './url-credentials.ts';

const server = useWireServer();

describe('credentials in a base URL (RFD 013)', () => {
  it('userinfo becomes a Basic header and the query default parameters; the URL left is clean', () => {
    expect(splitUrlCredentials('http://us%40er:p%3Ass@proxy:8080/v1?key=K1&x=2')).toEqual({
      baseUrl: 'http://proxy:8080/v1',
      headers: { Authorization: `Basic ${Buffer.from('us@er:p:ss').toString('base64')}` },
      query: { key: 'K1', x: '2' },
    });
    expect(splitUrlCredentials('https://api.example.com/v1')).toEqual({ baseUrl: 'https://api.example.com/v1', headers: {}, query: {} });
  });

  it('are still sent: the wire server sees the Basic header and ?key= on the request path', async () => {
    server.enqueue(openaiResponsesTextStream(['ok']));
    const base = new URL(`${server.url}/v1?key=QUERYKEY`);
    base.username = 'me';
    base.password = 'PASSWORD';
    const result = await collect(createOpenAIProvider({ apiKey: 'k', baseUrl: base.toString() }).stream({ model: 'm', events: turn('hi', []) }));
    expect(result.error).toBeUndefined();
    const sent = server.requests[0]!;
    expect(sent.headers.authorization).toBe(`Basic ${Buffer.from('me:PASSWORD').toString('base64')}`);
    expect([sent.path, sent.query]).toEqual(['/v1/responses', { key: 'QUERYKEY' }]);
  });
});
