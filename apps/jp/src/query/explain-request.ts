import { isBlobResource, type Resource } from '@jp/core';
import { sha256Of } from '../store/blob-sha256.ts';

/**
 * The wire request for `--explain`, with blob payloads (base64 anywhere in a string: a data URL,
 * a `data` field) replaced by their size and sha256, so the output stays readable.
 */
export function elideBlobs(request: unknown, resources: readonly Resource[]): unknown {
  const blobs = resources.filter(isBlobResource).map((resource) => ({
    base64: Buffer.from(resource.blob).toString('base64'),
    note: `<blob elided: ${resource.blob.byteLength} bytes, sha256:${sha256Of(resource.blob)}>`,
  }));
  const useful = blobs.filter((blob) => blob.base64.length >= 16);
  return JSON.parse(
    JSON.stringify(request, (_key, value: unknown) => {
      if (typeof value !== 'string' || value.length < 16) return value;
      let out = value;
      for (const blob of useful) if (out.includes(blob.base64)) out = out.split(blob.base64).join(blob.note);
      return out;
    }),
  );
}
