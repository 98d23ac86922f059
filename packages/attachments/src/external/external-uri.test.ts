import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { externalFileName, externalUri, hasExternalScheme } from './external-uri.ts';

const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('externalUri', () => {
  it('hashes the parent directory and keeps the file name verbatim', () => {
    expect(externalUri('/home/jean/Downloads/report.pdf')).toBe(`external:${sha('/home/jean/Downloads')}/report.pdf`);
    expect(externalUri('/home/jean/Downloads/my report #2.pdf')).toBe(`external:${sha('/home/jean/Downloads')}/my report #2.pdf`);
  });

  it('tells one name in two directories apart, and gives one file one URI', () => {
    expect(externalUri('/a/config.yaml')).not.toBe(externalUri('/b/config.yaml'));
    expect(externalUri('/a/config.yaml')).toBe(externalUri('/a/config.yaml'));
  });

  it('hashes the parent as UTF-8 bytes and keeps a decomposed name as it is', () => {
    expect(externalUri('/données/e\u0301.txt')).toBe(`external:${createHash('sha256').update(Buffer.from('/données', 'utf8')).digest('hex')}/e\u0301.txt`);
  });

  it('hashes the root for a file directly under /', () => {
    expect(externalUri('/top.txt')).toBe(`external:${sha('/')}/top.txt`);
  });

  it('carries no part of the path but the name', () => {
    expect(externalUri('/tmp/secret-dir/report.pdf')).not.toMatch(/tmp|secret/);
  });
});

describe('parsing', () => {
  it('reads the file name of a well-formed URI only', () => {
    const uri = externalUri('/x/y/report.pdf');
    expect(externalFileName(uri)).toBe('report.pdf');
    expect(externalFileName('external:abc/report.pdf')).toBeUndefined();
    expect(externalFileName(`external:${sha('/x')}/`)).toBeUndefined();
    expect(externalFileName(`external:${sha('/x')}/a/b`)).toBeUndefined();
  });

  it('recognises the scheme case-insensitively', () => {
    expect(hasExternalScheme('external:abc')).toBe(true);
    expect(hasExternalScheme('EXTERNAL:abc')).toBe(true);
    expect(hasExternalScheme('./external:abc')).toBe(false);
  });
});
