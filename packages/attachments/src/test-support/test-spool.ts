import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isRefResource, withLoadedContent, type LoadedResource, type Resource } from '@jp/core';
import type { ContentSpool, SpooledBlob } from '../handler.ts';

/** One `ContentSpool.written` call. */
export interface SpoolReport {
  file: string;
  blobs: SpooledBlob[];
  done: boolean;
}

/** A real spool in a plain directory, as the app keeps one (blob-spool.ts) minus the packing. */
export interface TestSpool extends ContentSpool {
  /** The files `create` made, in order. */
  readonly files: string[];
  /** Every report of what a file holds, in order. */
  readonly reports: SpoolReport[];
  /** The bytes of a reported blob, read back from `[offset, offset + size)` of its file. */
  read(sha256: string): Uint8Array;
  /** The resource with a reference to spooled content replaced by that content; others as they are. */
  load(resource: Resource): LoadedResource;
}

export function testSpool(dir: string): TestSpool {
  const files: string[] = [];
  const reports: SpoolReport[] = [];
  const read = (sha256: string): Uint8Array => {
    const blob = reports.flatMap((report) => report.blobs).find((candidate) => candidate.sha256 === sha256);
    // A reference to content nobody reported would be lost when the app discards the spool.
    if (blob === undefined) throw new Error(`blob ${sha256} was never reported to the spool`);
    return new Uint8Array(readFileSync(blob.file).subarray(blob.offset, blob.offset + blob.size));
  };
  return {
    files,
    reports,
    create() {
      mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `spool-${files.length}`);
      writeFileSync(file, '');
      files.push(file);
      return file;
    },
    written(file, blobs, done) {
      reports.push({ file, blobs: [...blobs], done });
    },
    read,
    load: (resource) => (isRefResource(resource) ? withLoadedContent(resource, read(resource.ref.sha256)) : resource),
  };
}
