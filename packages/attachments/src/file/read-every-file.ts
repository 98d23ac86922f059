import { isTextResource, rememberResourceDigest, resourceByteLength, resourceSha256, textResourceFromUtf8, type Resource } from '@jp/core';
import type { FileContentCache, FileStamp, HandlerContext } from '../handler.ts';
import type { FileMimeTypes } from './file-mime-type.ts';
import { fileStamp, isSettled } from './file-stamp.ts';
import { readLimitOf } from './oversize-read-length.ts';
import { readFileResource, resourceFromBytes, type FileToRead } from './read-file-resource.ts';
import type { ReaderPool, ReadFilesOptions } from './read-file-resources.ts';
import { resourceFromSpool, SpooledContent } from './spooled-resource.ts';

/*
 * The resources of files a reading (`startFileReading`) was fed, made once it is finished. Apart
 * from the reading itself because it needs @jp/core's resources, and with them zod: the reading
 * loads this module while files are found and read, so that an early tree (early-tree.ts), begun
 * before the command's modules load, starts walking and reading without waiting for them.
 */

export { loadFileMimeTypes } from './file-mime-type.ts';

/** Files resolved from a reader's messages between two calls to `options.pace`. */
const PACE_EVERY_FILES = 32;

/**
 * What remembers, in `cache`, each file read whole as UTF-8 text whose stamp — taken before the
 * read — had settled at `takenAt`, as its resource is made (so most of it happens while the
 * reader thread reads on).
 */
export function rememberingReads(cache: FileContentCache, takenAt: number): OnRead {
  return (file, resource, stamp) => {
    if (stamp === undefined || !file.uri.startsWith('file://') || !isSettled(stamp, takenAt) || !isTextResource(resource)) return;
    // Whole (a truncated text is shorter) and unchanged in size while read; a change after the stamp makes a new stamp anyway.
    if (resourceByteLength(resource) !== stamp.size) return;
    cache.remember(file.uri, stamp, { sha256: resourceSha256(resource), byteLength: stamp.size });
  };
}

/**
 * The resource of a file from its stored content, or `undefined` when it must be read: nothing
 * stored under this stamp, a file over the size threshold (the policy decides on a read), or a
 * binary format by name (read as a blob, never remembered).
 */
function storedFileResource(file: FileToRead, stamp: FileStamp, cache: FileContentCache, ctx: HandlerContext, mimeTypes: FileMimeTypes): Resource | undefined {
  const types = mimeTypes.of(file.realPath);
  if (stamp.size > ctx.limits.maxResourceBytes || types.media !== undefined) return undefined;
  const stored = cache.lookup(file.uri, stamp);
  if (stored === undefined) return undefined;
  const resource = textResourceFromUtf8({ uri: file.uri, name: file.name, mimeType: types.text }, () => stored.load());
  rememberResourceDigest(resource, { sha256: stored.sha256, byteLength: stored.byteLength });
  return resource;
}

/** Called for each file read (not taken from the store) as its resource is made, with the stamp it had before the read where known. */
export type OnRead = (file: FileToRead, resource: Resource, stamp: FileStamp | undefined) => void;

/**
 * Makes the resources of the files, in order. Many files are read by reader threads — stat, open,
 * fstat, read, sha256 and the UTF-8 check off this thread — while this thread builds resources
 * (RFD 002); `readers` have been fed every file already, and their results come in any order. A
 * file whose remembered stamp (`ctx.fileContents`) a reader finds unchanged is not read: this
 * thread takes its stored content. With `ctx.spool`, each reader writes the bytes into a spool
 * file of its own as it reads them and sends only where they lie: the store adopts those files
 * instead of writing the content again, and they are flushed to disk in the background meanwhile
 * (RFD 008). A file no reader reads (an error, not a regular file, over the size limit) is read
 * here with `readFileResource`, so errors, size-policy prompts and truncation are the same either
 * way; so is every file a reader that failed or died took and did not deliver.
 */
export async function readEveryFile(
  files: readonly FileToRead[],
  given: { remembered: ReadonlyArray<FileStamp | undefined>; readers: ReaderPool | undefined; mimeTypes: FileMimeTypes },
  ctx: HandlerContext,
  options: ReadFilesOptions,
  onRead: OnRead | undefined,
): Promise<Resource[]> {
  const cache = ctx.fileContents;
  const { remembered, readers, mimeTypes } = given;
  const resources = new Array<Resource | undefined>(files.length);
  const stats = options.stats ?? { workerFiles: 0 };
  if (cache !== undefined) stats.storedFiles = 0;
  const isWorkspaceFile = (k: number) => files[k]!.uri.startsWith('file://');
  /** Takes file `k`'s resource from the store when its `stamp` is as remembered; false when it must be read. */
  const takeStored = (k: number, stamp: FileStamp | undefined): boolean => {
    const fromStore = stamp === undefined ? undefined : storedFileResource(files[k]!, stamp, cache!, ctx, mimeTypes);
    if (fromStore === undefined) return false;
    stats.storedFiles!++;
    resources[k] = fromStore;
    return true;
  };
  /** Reads file `k` here, stamped before the read for the cache (a stamp just taken may be reused). */
  const readOne = async (k: number, stamp: FileStamp | undefined): Promise<void> => {
    const file = files[k]!;
    const before = stamp ?? (cache !== undefined && isWorkspaceFile(k) ? fileStamp(file.realPath) : undefined);
    const resource = await readFileResource(file, ctx);
    resources[k] = resource;
    onRead?.(file, resource, before);
  };
  /** Resolves the files no reader delivered, in order, on this thread. */
  const readHere = async (): Promise<void> => {
    for (let k = 0; k < files.length; k++) {
      if (resources[k] !== undefined) continue;
      await options.pace();
      options.onFile?.(files[k]!);
      const stamp = remembered[k] === undefined ? undefined : fileStamp(files[k]!.realPath);
      if (!takeStored(k, stamp)) await readOne(k, stamp);
    }
  };
  if (readers === undefined) {
    await readHere();
    return resources as Resource[];
  }

  /** What a reader of this context reads whole; larger files go to `readFileResource` and its size policy. */
  const readLimit = readLimitOf(ctx);
  /** Files since the event loop last ran: it runs (and an abort gets through) every few files, as an await per file costs more than the file. */
  let unpaced = 0;
  let delivered = 0;
  for (let next = await readers.next(); next !== 'ended'; next = await readers.next()) {
    const { batch, from } = next;
    for (const entry of batch.entries) {
      if (++unpaced >= PACE_EVERY_FILES) {
        unpaced = 0;
        await options.pace();
      }
      const k = entry.index;
      const file = files[k]!;
      delivered++;
      options.onFile?.(file);
      if (entry.kind !== 'read') {
        // Unchanged: the stamp is the one remembered. A fallback is read here, stamped now.
        if (entry.kind === 'fallback' || !takeStored(k, remembered[k])) await readOne(k, undefined);
        continue;
      }
      if (entry.size > readLimit) {
        // Read under a larger limit than this context's (a reading begun early): the policy decides, here.
        await readOne(k, undefined);
        continue;
      }
      let resource: Resource;
      if (batch.buffer === undefined) {
        const spooled = new SpooledContent(from.spool!.file, entry.sha256, entry.offset, entry.length, ctx.spool!);
        from.spool!.blobs.push(spooled);
        resource = resourceFromSpool(file, spooled, { size: entry.size, utf8: entry.utf8 }, mimeTypes);
        stats.spooledFiles = (stats.spooledFiles ?? 0) + 1;
      } else {
        // The batch's buffer is never written again: its bytes become the resources' content.
        const bytes = new Uint8Array(batch.buffer, entry.offset, entry.length);
        resource = resourceFromBytes(file, bytes, { size: entry.size, shared: false, sha256: entry.sha256, utf8: entry.utf8 }, mimeTypes);
      }
      resources[k] = resource;
      onRead?.(file, resource, { size: entry.size, mtimeMs: entry.mtimeMs, ctimeMs: entry.ctimeMs, ino: entry.ino });
      stats.workerFiles++;
    }
    readers.consumed(from);
  }
  if (delivered < files.length) {
    // Nothing is lost, only time: say so and read what the readers did not deliver on this thread.
    const reason = readers.failure ?? `they ended after ${delivered} of ${files.length} files`;
    stats.workerFailure = reason;
    ctx.logger.warn(`reading ${files.length - delivered} files on one thread: the reader thread failed (${reason})`);
    await readHere();
  }
  return resources as Resource[];
}
