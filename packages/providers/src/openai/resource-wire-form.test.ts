import { describe, expect, it } from 'vitest';
import { blobResource, PDF_BYTES, textResource } from '../__fixtures__/conversation.ts';
import { resourceFilename, resourceWireForm } from './resource-wire-form.ts';

describe('resourceWireForm', () => {
  it('names PDFs after the last segment of their name or URI', () => {
    expect(resourceFilename(blobResource('file:///w/a/b.pdf', 'application/pdf', PDF_BYTES, { name: 'a/b.pdf' }), 'x.pdf')).toBe('b.pdf');
    expect(resourceFilename(blobResource('external:abc/report.pdf', 'application/pdf', PDF_BYTES), 'x.pdf')).toBe('report.pdf');
    expect(resourceFilename(blobResource('https://h/', 'application/pdf', PDF_BYTES), 'x.pdf')).toBe('h');
    expect(resourceFilename(blobResource('/', 'application/pdf', PDF_BYTES), 'x.pdf')).toBe('x.pdf');
  });

  it('says which vendor skipped what, using the resource’s own MIME type', () => {
    expect(resourceWireForm(blobResource('file:///w/x', 'Video/MP4', new Uint8Array([0])), 'openrouter', { pdf: true })).toEqual({
      type: 'skip',
      warning: 'Video/MP4 is not supported by openrouter; skipped file:///w/x',
    });
    expect(resourceWireForm(textResource('file:///w/t', 't'), 'ollama', { pdf: false })).toMatchObject({ type: 'text' });
  });
});
