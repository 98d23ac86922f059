import { describe, expect, it } from 'vitest';
import { redactUrl, redactUrlsIn, textHasUrlSecret, urlHasSecret } from './url-secrets.ts';

describe('URL secrets', () => {
  it('finds a password in the userinfo and credential query parameters', () => {
    expect(urlHasSecret('http://user:SEKRIT@host:11434/v1')).toBe(true);
    expect(urlHasSecret('https://generativelanguage.example/v1beta?key=AIzaXYZ')).toBe(true);
    for (const param of ['token', 'api_key', 'API-KEY', 'access_token', 'sig', 'client_secret']) expect(urlHasSecret(`https://h/x?${param}=v`), param).toBe(true);
  });

  it('leaves plain URLs, a user name alone, and harmless parameters', () => {
    for (const url of ['http://127.0.0.1:11434/v1', 'https://user@host/v1', 'https://h/x?alt=sse&model=m', 'https://h/x?keyboard=1', 'not a url']) expect(urlHasSecret(url), url).toBe(false);
  });

  it('redacts the password and the credentials, keeping the rest', () => {
    expect(redactUrl('http://user:SEKRIT@host:11434/v1')).toBe('http://user:REDACTED@host:11434/v1');
    expect(redactUrl('https://h/v1beta?alt=sse&key=AIzaXYZ')).toBe('https://h/v1beta?alt=sse&key=REDACTED');
    expect(redactUrl('http://u:p@h')).toBe('http://u:REDACTED@h');
    expect(redactUrl('http://127.0.0.1:9/v1')).toBe('http://127.0.0.1:9/v1');
  });

  it('finds and redacts URLs inside text', () => {
    const message = 'cannot connect to ollama at http://u:SEKRIT@h:11434/v1 (connection refused)';
    expect(textHasUrlSecret(message)).toBe(true);
    expect(redactUrlsIn(message)).toBe('cannot connect to ollama at http://u:REDACTED@h:11434/v1 (connection refused)');
    expect(redactUrlsIn(message)).not.toContain('SEKRIT');
  });
});
