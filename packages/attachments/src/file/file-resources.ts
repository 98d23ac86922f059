import { hash } from 'node:crypto';
import { isTextResource, resourceBytes, type RefResource, type Resource } from '@jp/core';
import type { FileContentCache, FileStamp, HandlerContext } from '../handler.ts';
import { binaryMimeType, loadFileMimeTypes, type FileMimeTypes } from './file-mime-type.ts';
import type { ReadFilesOptions, ReadFilesStats } from './file-reading.ts';
import { fileStamp, isSettled } from './file-stamp.ts';
import { readLimitOf } from './oversize-read-length.ts';
import { readFileResource, type FileToRead } from './read-file-resource.ts';
import type { ReaderThread } from './reader-thread.ts';

/*
 * The resources of the files a reading (file-reading.ts) was fed, made once it is finished. A
 * module of its own because it needs the MIME tables: the reading loads it while files are found
 * and read.
 */

/** Outcomes used between two calls to `options.pace`: an await per file would cost more than the file. */
const PACE_EVERY_FILES = 32;

/** A reference to the content of a workspace file: what the reader spooled, or what the cache knows. */
function fileRef(file: FileToRead, mimeType: string, ref: RefResource['ref']): RefResource {
  return { uri: file.uri, name: file.name, mimeType, ref };
}

/**
 * The resource of a file whose content the cache knows under this stamp, or `undefined` when it
 * must be read: nothing known, a file over the size threshold (the policy decides on a read), or
 * a binary format by name (read as a blob, never remembered). Whether the blob store still holds
 * that content is decided when the turn is stored, under the store's lock.
 */
function knownFileResource(file: FileToRead, stamp: FileStamp, cache: FileContentCache, ctx: HandlerContext, mimeTypes: FileMimeTypes): RefResource | undefined {
  const types = mimeTypes.of(file.realPath);
  if (stamp.size > ctx.limits.maxResourceBytes || types.media !== undefined) return undefined;
  const known = cache.lookup(file.uri, stamp);
  return known === undefined ? undefined : fileRef(file, types.text, { sha256: known.sha256, size: known.byteLength, encoding: 'text' });
}

/**
 * Makes the resources of `files`, in order. The reader thread, when there is one, has been fed all
 * of them: a file it read becomes a reference to its bytes in the spool file; one whose stamp it
 * found unchanged, a reference to the content the cache knows. Any other file — an error, not a
 * regular file, over the size limit, or not delivered because the reader failed — is read here
 * by `readFileResource`, so errors, size-policy prompts and truncation are the same either way.
 * Files read whole as UTF-8 text whose stamp had settled before the read are remembered in the cache.
 */
export async function makeFileResources(
  files: readonly FileToRead[],
  given: { remembered: ReadonlyArray<FileStamp | undefined>; reader: ReaderThread | undefined; takenAt: number },
  ctx: HandlerContext,
  options: ReadFilesOptions,
): Promise<Resource[]> {
  const cache = ctx.fileContents;
  const { remembered, reader, takenAt } = given;
  const mimeTypes = await loadFileMimeTypes();
  const resources = new Array<Resource | undefined>(files.length);
  const stats: ReadFilesStats = options.stats ?? { readerFiles: 0, knownFiles: 0 };
  const remember = (file: FileToRead, stamp: FileStamp | undefined, digest: { sha256: string; byteLength: number }): void => {
    if (cache === undefined || stamp === undefined || !file.uri.startsWith('file://') || !isSettled(stamp, takenAt)) return;
    // Whole: a truncated text is shorter than the file was.
    if (digest.byteLength === stamp.size) cache.remember(file.uri, stamp, digest);
  };
  const takeKnown = (k: number, stamp: FileStamp | undefined): boolean => {
    const known = stamp === undefined || cache === undefined ? undefined : knownFileResource(files[k]!, stamp, cache, ctx, mimeTypes);
    if (known === undefined) return false;
    stats.knownFiles++;
    resources[k] = known;
    return true;
  };
  /** Reads file `k` on this thread, stamped before the read for the cache. */
  const readHere = async (k: number): Promise<void> => {
    const file = files[k]!;
    const before = cache !== undefined && file.uri.startsWith('file://') ? fileStamp(file.realPath) : undefined;
    if (remembered[k] !== undefined && before !== undefined && sameStamp(before, remembered[k]) && takeKnown(k, before)) return;
    const resource = await readFileResource(file, ctx);
    resources[k] = resource;
    if (isTextResource(resource)) {
      const bytes = resourceBytes(resource);
      remember(file, before, { sha256: hash('sha256', bytes, 'hex'), byteLength: bytes.byteLength });
    }
  };
  /** Resolves, in order, the files the reader did not deliver. */
  const readRest = async (): Promise<void> => {
    for (let k = 0; k < files.length; k++) {
      if (resources[k] !== undefined) continue;
      await options.pace();
      options.onFile?.(files[k]!);
      await readHere(k);
    }
  };
  if (reader === undefined) {
    await readRest();
    return resources as Resource[];
  }

  /** What a reader under this context reads whole; a larger file goes to `readFileResource` and its size policy. */
  const readLimit = readLimitOf(ctx);
  let unpaced = 0;
  let delivered = 0;
  for (let batch = await reader.next(); batch !== 'ended'; batch = await reader.next()) {
    for (const entry of batch.entries) {
      if (++unpaced >= PACE_EVERY_FILES) {
        unpaced = 0;
        await options.pace();
      }
      const k = entry.index;
      const file = files[k]!;
      delivered++;
      options.onFile?.(file);
      if (entry.kind === 'unchanged' && takeKnown(k, remembered[k])) continue;
      if (entry.kind !== 'read' || Math.max(entry.size, entry.length) > readLimit) {
        // Read under a larger limit than this context's (a read-ahead): the policy decides, here.
        await readHere(k);
        continue;
      }
      const { sha256, length: size } = entry;
      const types = mimeTypes.of(file.realPath);
      const text = types.media === undefined && entry.utf8;
      resources[k] = fileRef(file, text ? types.text : (types.media ?? binaryMimeType(file.realPath)), { sha256, size, encoding: text ? 'text' : 'binary' });
      reader.use({ sha256, offset: entry.offset, size });
      if (text) remember(file, { size: entry.size, mtimeMs: entry.mtimeMs, ctimeMs: entry.ctimeMs, ino: entry.ino }, { sha256, byteLength: size });
      stats.readerFiles++;
    }
  }
  if (delivered < files.length) {
    // Nothing is lost, only time: say so and read what the reader did not deliver on this thread.
    const reason = reader.failure ?? `it ended after ${delivered} of ${files.length} files`;
    stats.readerFailure = reason;
    ctx.logger.warn(`reading ${files.length - delivered} files on one thread: the reader thread failed (${reason})`);
    await readRest();
  }
  return resources as Resource[];
}

function sameStamp(a: FileStamp, b: FileStamp | undefined): boolean {
  return b !== undefined && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.ino === b.ino;
}
