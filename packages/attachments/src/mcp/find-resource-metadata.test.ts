import { UriTemplate } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { comparableUri, findResourceMetadata, matchesTemplate } from './find-resource-metadata.ts';
import { collectPages } from './list-mcp-catalog.ts';

const catalog = {
  resources: [
    { uri: 'fixture://docs/readme', name: 'readme', title: 'Fixture README', description: 'About', mimeType: 'text/markdown' },
    { uri: 'fixture://notes/pinned', name: 'pinned' },
  ],
  templates: [
    { uriTemplate: 'fixture://notes/{id}', name: 'note', title: 'A note', mimeType: 'text/plain' },
    { uriTemplate: 'fixture://files/{+path}', name: 'file', description: 'By path' },
    { uriTemplate: 'fixture://{+anything}', name: 'catch-all' },
  ],
};

describe('matchesTemplate (the SDK matcher, RFC 6570)', () => {
  it('{var} matches one segment, {+path} matches across slashes', () => {
    expect(matchesTemplate('fixture://notes/{id}', 'fixture://notes/42', UriTemplate)).toBe(true);
    expect(matchesTemplate('fixture://notes/{id}', 'fixture://notes/a/b', UriTemplate)).toBe(false);
    expect(matchesTemplate('fixture://files/{+path}', 'fixture://files/a/b/c.txt', UriTemplate)).toBe(true);
    expect(matchesTemplate('fixture://files/{+path}', 'fixture://files/', UriTemplate)).toBe(false);
    expect(matchesTemplate('demo://resource/dynamic/text/{resourceId}', 'demo://resource/dynamic/text/7', UriTemplate)).toBe(true);
  });

  it('a template the matcher cannot parse matches nothing', () => {
    expect(matchesTemplate('fixture://notes/{id', 'fixture://notes/{id', UriTemplate)).toBe(false);
  });
});

describe('findResourceMetadata', () => {
  it('takes a direct resource first, with its name, title, description and MIME type', () => {
    expect(findResourceMetadata(catalog, 'fixture://docs/readme', UriTemplate)).toEqual({
      name: 'readme',
      title: 'Fixture README',
      description: 'About',
      mimeType: 'text/markdown',
      source: { kind: 'resource' },
    });
    // A direct resource wins over the template it also matches.
    expect(findResourceMetadata(catalog, 'fixture://notes/pinned', UriTemplate)).toMatchObject({ name: 'pinned', source: { kind: 'resource' } });
  });

  it('falls back to the first matching template in the server order', () => {
    expect(findResourceMetadata(catalog, 'fixture://notes/7', UriTemplate)).toMatchObject({
      name: 'note',
      title: 'A note',
      mimeType: 'text/plain',
      source: { kind: 'template', uriTemplate: 'fixture://notes/{id}' },
    });
    expect(findResourceMetadata(catalog, 'fixture://files/a/b/c.txt', UriTemplate)).toMatchObject({ name: 'file', description: 'By path' });
    expect(findResourceMetadata(catalog, 'fixture://elsewhere/x', UriTemplate)).toMatchObject({ name: 'catch-all' });
  });

  it('finds a direct resource spelled differently but equal as a URL', () => {
    expect(findResourceMetadata(catalog, 'fixture://docs/./readme', UriTemplate)).toMatchObject({ name: 'readme' });
    expect(comparableUri('FIXTURE://docs/x/../readme')).toBe('fixture://docs/readme');
    expect(comparableUri('not a uri')).toBe('not a uri');
  });

  it('is undefined when nothing listed fits', () => {
    expect(findResourceMetadata(catalog, 'other://x', UriTemplate)).toBeUndefined();
    expect(findResourceMetadata({ resources: [], templates: [] }, 'fixture://docs/readme', UriTemplate)).toBeUndefined();
  });
});

describe('collectPages', () => {
  const pages: Record<string, { items: number[]; nextCursor?: string }> = {
    start: { items: [1, 2], nextCursor: 'b' },
    b: { items: [3], nextCursor: 'c' },
    c: { items: [4] },
  };

  it('follows nextCursor to the end', async () => {
    const cursors: Array<string | undefined> = [];
    const result = await collectPages(async (cursor) => {
      cursors.push(cursor);
      return pages[cursor ?? 'start']!;
    });
    expect(result).toEqual({ items: [1, 2, 3, 4], truncated: false });
    expect(cursors).toEqual([undefined, 'b', 'c']);
  });

  it('stops at a cursor it has seen and at maxPages', async () => {
    const looping = await collectPages(async (cursor) => ({ items: [cursor ?? '-'], nextCursor: cursor === 'x' ? 'y' : 'x' }));
    expect(looping).toEqual({ items: ['-', 'x', 'y'], truncated: false });
    let served = 0;
    const endless = await collectPages(async () => ({ items: [served], nextCursor: String(served++) }), 3);
    expect(endless).toEqual({ items: [0, 1, 2], truncated: true });
  });
});
