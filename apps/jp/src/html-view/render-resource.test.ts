import { describe, expect, it } from 'vitest';
import { FakeContent } from './__fixtures__/page-fixture.ts';
import { FOLD_CAP_BYTES } from './content-reader.ts';
import { renderResource } from './render-resource.ts';
import { snapshotSha256 } from './resource-status.ts';

describe('renderResource', () => {
  it('shows metadata and status, and folds text up to the cap, escaped', () => {
    const content = new FakeContent();
    const text = `<b>${'x'.repeat(FOLD_CAP_BYTES * 2)}`;
    const resource = content.ref('file:///w/a&b.txt', text, { name: 'a&b.txt', mimeType: 'text/plain' });
    const html = renderResource(resource, { kind: 'refreshed', sha256: resource.ref.sha256, size: resource.ref.size, supersededFrom: 4 }, content);
    expect(html).toContain('<code class="uri">file:///w/a&amp;b.txt</code>');
    expect(html).toContain(`sha256 ${resource.ref.sha256.slice(0, 12)}`);
    expect(html).toContain('>refreshed<');
    expect(html).toContain('superseded from turn 4');
    expect(html).toContain(`the first ${FOLD_CAP_BYTES.toLocaleString('en-US')} bytes shown`);
    expect(html).toContain('<details><summary>');
    expect(html).toContain('&lt;b&gt;xxx');
    expect(content.reads).toEqual([{ uri: 'file:///w/a&b.txt', maxBytes: FOLD_CAP_BYTES }]);
  });

  it('inlines a raster image, shows other binaries by size and hash only, and reads neither a binary nor a deduplicated snapshot', () => {
    const content = new FakeContent();
    const png = content.ref('file:///w/i.png', new Uint8Array([137, 80, 78, 71]), { mimeType: 'image/png' });
    const bin = content.ref('file:///w/x.bin', new Uint8Array([1, 2, 3]), { mimeType: 'application/octet-stream' });
    const status = (r: typeof png) => ({ kind: 'new' as const, sha256: snapshotSha256(r), size: r.ref.size });
    expect(renderResource(png, status(png), content)).toContain('src="data:image/png;base64,iVBORw=="');
    expect(renderResource(bin, status(bin), content)).not.toContain('<img');
    const again = content.ref('file:///w/a.txt', 'same');
    expect(renderResource(again, { kind: 'deduplicated', sha256: again.ref.sha256, size: 4, sameAsTurn: 2 }, content)).toContain('href="#turn-2"');
    expect(content.reads.map((r) => r.uri)).toEqual(['file:///w/i.png']);
  });

  it('shows an image of an unsafe type (SVG) as its size only, not inline', () => {
    const content = new FakeContent();
    const svg = content.ref('file:///w/s.svg', new Uint8Array([60]), { mimeType: 'image/svg+xml' });
    expect(renderResource(svg, { kind: 'new', sha256: svg.ref.sha256, size: 1 }, content)).not.toContain('data:');
  });
});
