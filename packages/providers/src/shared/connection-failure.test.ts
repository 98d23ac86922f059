import { describe, expect, it } from 'vitest';
import { connectionError } from './connection-failure.ts';

const failure = (code: string) => Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error(`connect ${code} 203.0.113.9:443`), { code }) });

describe('connectionError', () => {
  it('does not retry a refused connection, on this machine or elsewhere', () => {
    const local = connectionError('ollama', 'http://127.0.0.1:11434/v1', failure('ECONNREFUSED'));
    expect(local).toMatchObject({ code: 'connection_refused', isRetryable: false });
    expect(local.message).toBe('cannot connect to ollama at http://127.0.0.1:11434/v1 (connection refused); start the server (ollama serve) or set providers.ollama.base_url');
    const remote = connectionError('openai', 'https://api.example.test/v1', failure('ECONNREFUSED'));
    expect(remote).toMatchObject({ code: 'connection_refused', isRetryable: false });
    expect(remote.message).toBe('cannot connect to openai at https://api.example.test/v1 (connection refused); check providers.openai.base_url');
  });

  it('does not retry a port this machine may not reach', () => {
    for (const code of ['EACCES', 'EPERM']) {
      expect(connectionError('anthropic', 'https://api.example.test', failure(code))).toMatchObject({ code: 'connection_blocked', isRetryable: false });
    }
  });

  it('does not retry a name that does not resolve, and names the host', () => {
    const dns = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('getaddrinfo ENOTFOUND api.example.test'), { code: 'ENOTFOUND', hostname: 'api.example.test' }) });
    const error = connectionError('anthropic', 'https://api.example.test', dns);
    expect(error).toMatchObject({ code: 'host_not_found', isRetryable: false });
    expect(error.message).toBe('cannot connect to anthropic: api.example.test does not resolve (DNS: no such host); check the network, or providers.anthropic.base_url');
  });

  it('does not retry a port fetch refuses to use', () => {
    const badPort = Object.assign(new TypeError('fetch failed'), { cause: new TypeError('bad port') });
    const error = connectionError('openrouter', 'http://127.0.0.1:9/v1', badPort);
    expect(error).toMatchObject({ code: 'connection_blocked', isRetryable: false });
    expect(error.message).toBe('cannot connect to openrouter at http://127.0.0.1:9/v1: HTTP clients refuse that port; use another port in providers.openrouter.base_url');
  });

  it('retries a reset and a time-out', () => {
    expect(connectionError('anthropic', 'https://api.example.test', failure('ECONNRESET'))).toMatchObject({ code: 'connection_error', isRetryable: true });
    expect(connectionError('anthropic', 'https://api.example.test', failure('ETIMEDOUT'))).toMatchObject({ code: 'connection_error', isRetryable: true });
  });
});
