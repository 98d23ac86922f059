import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import { JpError, UsageError } from '@jp/core';
import { createAjv } from './load-ajv.ts';

/** The largest `--schema @FILE` jp reads: a schema is a small document, and a larger file is a mistake. */
export const MAX_SCHEMA_FILE_BYTES = 1024 * 1024;

function schemaFileError(message: string): UsageError {
  return new UsageError(message, { code: 'invalid_schema' });
}

/**
 * The text of `--schema @FILE`: a regular file of at most `MAX_SCHEMA_FILE_BYTES`. It is opened
 * without blocking and checked with `fstat` before anything is read, so a FIFO, a device
 * (`/dev/zero`, `/dev/urandom`) or a directory is an error instead of a hang; reading stops one
 * byte past the limit, whatever the stat size said.
 */
function readSchemaFile(name: string, cwd: string): string {
  let fd: number;
  try {
    fd = openSync(path.resolve(cwd, name), constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' || code === 'ENOTDIR' ? 'no such file' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (code ?? (error as Error).message);
    throw schemaFileError(`cannot read the schema file ${name}: ${why}`);
  }
  try {
    const stats = fstatSync(fd);
    if (stats.isDirectory()) throw schemaFileError(`the schema file ${name} is a directory; give --schema @FILE a JSON file`);
    if (!stats.isFile()) throw schemaFileError(`the schema file ${name} is not a regular file (a FIFO, socket or device); give --schema @FILE a JSON file`);
    const tooLarge = () => schemaFileError(`the schema file ${name} is over ${MAX_SCHEMA_FILE_BYTES} bytes, the most jp reads for --schema`);
    if (stats.size > MAX_SCHEMA_FILE_BYTES) throw tooLarge();
    const buffer = Buffer.alloc(MAX_SCHEMA_FILE_BYTES + 1);
    let filled = 0;
    while (filled < buffer.byteLength) {
      const read = readSync(fd, buffer, filled, buffer.byteLength - filled, null);
      if (read === 0) break;
      filled += read;
    }
    if (filled > MAX_SCHEMA_FILE_BYTES) throw tooLarge();
    return buffer.toString('utf8', 0, filled);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw schemaFileError(`cannot read the schema file ${name}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  } finally {
    closeSync(fd);
  }
}

/** `--schema`: a JSON Schema given inline or as `@file` (relative to the current directory). */
export function readSchemaOption(value: string, cwd: string): Record<string, unknown> {
  const text = value.startsWith('@') ? readSchemaFile(value.slice(1), cwd) : value;
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch {
    const what = value.startsWith('@') ? `the schema file ${value.slice(1)} is not valid JSON` : '--schema is not valid JSON (give a JSON Schema inline, or @file)';
    throw new UsageError(what, { code: 'invalid_schema' });
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new UsageError('--schema must be a JSON Schema object', { code: 'invalid_schema' });
  }
  return schema as Record<string, unknown>;
}

/** A checker for answers; compiling also proves the schema itself is valid (a usage error if not). */
export async function compileSchema(schema: Record<string, unknown>): Promise<(answer: string) => unknown> {
  const ajv = await createAjv();
  let validate: ReturnType<typeof ajv.compile>;
  try {
    validate = ajv.compile(schema);
  } catch (error) {
    throw new UsageError(`--schema is not a valid JSON Schema: ${(error as Error).message}`, { code: 'invalid_schema' });
  }
  return (answer: string) => {
    let value: unknown;
    try {
      value = JSON.parse(answer);
    } catch {
      throw new JpError('the answer is not JSON, so it does not match --schema', { code: 'schema_mismatch' });
    }
    if (!validate(value)) {
      throw new JpError(`the answer does not match --schema: ${ajv.errorsText(validate.errors, { separator: '; ' })}`, { code: 'schema_mismatch' });
    }
    return value;
  };
}
