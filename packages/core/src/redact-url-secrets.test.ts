import { describe, expect, it } from 'vitest';
import { JpError } from './errors/jp-error.ts';
import { hasUrlSecrets, redactUrlSecrets } from './redact-url-secrets.ts';

describe('redactUrlSecrets (RFD 013)', () => {
  it.each([
    ['http://user:SEKRIT@host:11434/v1', 'http://user:***@host:11434/v1'],
    ['https://ghp_TOKEN@github.com/x.git', 'https://***@github.com/x.git'],
    ['https://g.example/v1beta?key=AIzaSEKRIT&alt=sse', 'https://g.example/v1beta?key=***&alt=sse'],
    ['https://h/v1?alt=sse&access_token=T0K&Api-Key=K2', 'https://h/v1?alt=sse&access_token=***&Api-Key=***'],
    ['connection to ollama at http://u:p4ss@127.0.0.1:9/v1?token=abc failed', 'connection to ollama at http://u:***@127.0.0.1:9/v1?token=*** failed'],
  ])('%s', (input, expected) => {
    expect(redactUrlSecrets(input)).toBe(expected);
    expect(hasUrlSecrets(input)).toBe(true);
    // Redacting twice changes nothing: a redacted URL holds no secret.
    expect(hasUrlSecrets(expected)).toBe(false);
  });

  it.each(['https://api.openai.com/v1', 'http://127.0.0.1:11434/v1?alt=sse&keys=2', 'max_tokens=4 key=value', 'file:///home/u/notes.txt'])('leaves %s alone', (input) => {
    expect(redactUrlSecrets(input)).toBe(input);
  });

  it('every JpError message is redacted', () => {
    expect(new JpError('cannot reach http://me:SEKRIT@h/v1?key=K').message).toBe('cannot reach http://me:***@h/v1?key=***');
  });
});

describe('redactUrlSecrets in a sentence', () => {
  it('leaves the punctuation that follows a URL in a message', () => {
    expect(redactUrlSecrets('cannot connect to x at http://h/v1?token=S3CR3T: refused')).toBe('cannot connect to x at http://h/v1?token=***: refused');
    expect(redactUrlSecrets('(see http://h/?key=abc), then')).toBe('(see http://h/?key=***), then');
  });
});
