import { describe, expect, it } from 'vitest';
import { AttachmentError } from './attachment-error.ts';
import { ExitCode, JpError, isJpError } from './jp-error.ts';
import { LockedError } from './locked-error.ts';
import { ProviderError } from './provider-error.ts';
import { UsageError } from './usage-error.ts';

describe('exit codes', () => {
  it('match the CLI contract', () => {
    expect(ExitCode).toEqual({ ok: 0, runtime: 1, usage: 2, provider: 3, attachment: 4, locked: 5, interrupted: 130 });
  });

  it.each([
    ['JpError', new JpError('something broke'), 1, 'runtime_error'],
    ['UsageError', new UsageError('unknown flag --frobnicate'), 2, 'usage_error'],
    ['ProviderError', new ProviderError('anthropic', 'ANTHROPIC_API_KEY is not set'), 3, 'provider_error'],
    ['AttachmentError', new AttachmentError('src/missing.rs', 'no such file: src/missing.rs'), 4, 'attachment_error'],
    ['LockedError', new LockedError('conversation is locked by pid 4242', 4242), 5, 'conversation_locked'],
  ])('%s exits %i with code %s', (name, error, exitCode, code) => {
    expect(error.exitCode).toBe(exitCode);
    expect(error.code).toBe(code);
    expect(error.name).toBe(name);
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(JpError);
    expect(isJpError(error)).toBe(true);
    expect(String(error)).toBe(`${name}: ${error.message}`);
  });
});

describe('error fields', () => {
  it('keeps the message, a custom code and the cause', () => {
    const cause = new Error('ENOENT');
    const error = new AttachmentError('src/a.rs', 'cannot read src/a.rs', { code: 'not_found', cause });
    expect(error.message).toBe('cannot read src/a.rs');
    expect(error.attachment).toBe('src/a.rs');
    expect(error.code).toBe('not_found');
    expect(error.cause).toBe(cause);
  });

  it('has no cause property when none was given', () => {
    expect(Object.hasOwn(new UsageError('bad'), 'cause')).toBe(false);
  });

  it('records provider status and retryability', () => {
    const error = new ProviderError('openai', 'rate limited', { statusCode: 429, isRetryable: true, code: 'rate_limited' });
    expect(error).toMatchObject({ provider: 'openai', statusCode: 429, isRetryable: true, code: 'rate_limited', exitCode: 3 });
    const plain = new ProviderError('google', 'bad request');
    expect(plain.statusCode).toBeUndefined();
    expect(plain.isRetryable).toBe(false);
  });

  it('records the lock holder', () => {
    expect(new LockedError('locked', 4242).holderPid).toBe(4242);
    expect(new LockedError('locked', undefined).holderPid).toBeUndefined();
  });

  it('lets a JpError choose its exit code', () => {
    expect(new JpError('interrupted', { exitCode: ExitCode.interrupted, code: 'interrupted' }).exitCode).toBe(130);
  });
});

describe('isJpError', () => {
  it('rejects everything that is not a JpError', () => {
    expect(isJpError(new Error('plain'))).toBe(false);
    expect(isJpError(new TypeError('type'))).toBe(false);
    expect(isJpError({ name: 'JpError', message: 'x', exitCode: 2, code: 'usage_error' })).toBe(false);
    expect(isJpError('UsageError')).toBe(false);
    expect(isJpError(undefined)).toBe(false);
    expect(isJpError(null)).toBe(false);
  });
});
