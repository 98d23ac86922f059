import { describe, expect, it } from 'vitest';
import { pathPrivacy } from './public-uri.ts';

describe('pathPrivacy', () => {
  const privacy = pathPrivacy('/home/me/my project');

  it('shows workspace files by their workspace-relative file: form', () => {
    expect(privacy.uri('file:///home/me/my%20project/src/a.ts')).toBe('file:src/a.ts');
    expect(privacy.uri('file:///home/me/my%20project')).toBe('file:.');
  });

  it('keeps other URIs, and reduces a file outside the workspace to its name', () => {
    expect(privacy.uri('external:abc/x.pdf')).toBe('external:abc/x.pdf');
    expect(privacy.uri('https://example.com/a')).toBe('https://example.com/a');
    expect(privacy.uri('file:///etc/passwd')).toBe('file:///…/passwd');
  });

  it('takes the workspace root out of text', () => {
    expect(privacy.text('see /home/me/my project/src/a.ts and file:///home/me/my%20project/b.ts in /home/me/my project')).toBe('see src/a.ts and file:b.ts in .');
    expect(privacy.text('nothing here')).toBe('nothing here');
  });
});
