import { AttachmentError } from '@jp/core';
import { describe, expect, it } from 'vitest';
import { normalizeHttpUrl, parseHttpUrl, redactUrl } from './normalize-http-url.ts';

describe('normalizeHttpUrl', () => {
  it.each([
    ['https://Example.COM:443/a/./b', 'https://example.com/a/b'],
    ['HTTP://Example.com:80/', 'http://example.com/'],
    ['hTTpS://EXAMPLE.com/Path/Keeps/Case', 'https://example.com/Path/Keeps/Case'],
    ['http://example.com:8080/x', 'http://example.com:8080/x'],
    ['https://example.com:80/', 'https://example.com:80/'],
    ['http://example.com:443/', 'http://example.com:443/'],
    ['https://a.com', 'https://a.com/'],
    ['https://a.com/dir/', 'https://a.com/dir/'],
    ['https://a.com/dir', 'https://a.com/dir'],
    ['https://a.com/a/b/../c/./d', 'https://a.com/a/c/d'],
    ['https://a.com/../../x', 'https://a.com/x'],
    ['https://a.com/%2e%2E/x', 'https://a.com/x'],
    ['https://a.com/x?b=2&a=1', 'https://a.com/x?b=2&a=1'],
    ['https://a.com/x?', 'https://a.com/x?'],
    ['https://a.com/x?q=%41', 'https://a.com/x?q=%41'],
    ['https://a.com/page#section', 'https://a.com/page'],
    ['https://a.com/page?q=1#', 'https://a.com/page?q=1'],
    ['https://a.com/a b', 'https://a.com/a%20b'],
    ['https://Bücher.example/', 'https://xn--bcher-kva.example/'],
    ['  https://a.com/x  ', 'https://a.com/x'],
    ['http://127.0.0.1:8080/a/./b.html', 'http://127.0.0.1:8080/a/b.html'],
    ['http://[::1]:80/', 'http://[::1]/'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeHttpUrl(input)).toBe(expected);
    // Canonical forms are fixed points.
    expect(normalizeHttpUrl(expected)).toBe(expected);
  });

  it.each([
    ['https://user:secret@example.com/x', /has a user name or password in it, which would be stored in the conversation; remove them/],
    ['https://user@example.com/x', /has a user name or password/],
    ['https://:secret@example.com/x', /has a user name or password/],
    ['ftp://example.com/x', /ftp:\/\/example\.com\/x is not an http or https URL/],
    ['http://', /http:\/\/ is not a valid URL; write it as https:\/\/host\/path/],
    ['https://exa mple.com/', /is not a valid URL/],
  ])('refuses %s', (input, message) => {
    let caught: unknown;
    try {
      parseHttpUrl(input);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AttachmentError);
    expect((caught as AttachmentError).message).toMatch(message);
    expect((caught as AttachmentError).message).not.toContain('secret');
    expect((caught as AttachmentError).attachment).not.toContain('secret');
  });
});

describe('redactUrl', () => {
  it('hides user name and password, and leaves other URLs as given', () => {
    expect(redactUrl('https://user:secret@example.com/x')).toBe('https://***@example.com/x');
    expect(redactUrl('https://example.com/x')).toBe('https://example.com/x');
    expect(redactUrl('HTTPS://Example.com/x')).toBe('HTTPS://Example.com/x');
    expect(redactUrl('https://user:secret@exa mple.com/')).toBe('https://***@exa mple.com/');
  });
});
