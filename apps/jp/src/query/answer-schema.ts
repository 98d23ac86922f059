import { readFileSync } from 'node:fs';
import path from 'node:path';
import { JpError, UsageError } from '@jp/core';
import { loadAjv } from './load-ajv.ts';

/** `--schema`: a JSON Schema given inline or as `@file` (relative to the current directory). */
export function readSchemaOption(value: string, cwd: string): Record<string, unknown> {
  let text = value;
  if (value.startsWith('@')) {
    const file = path.resolve(cwd, value.slice(1));
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new UsageError(`cannot read the schema file ${value.slice(1)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, {
        code: 'invalid_schema',
      });
    }
  }
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch {
    throw new UsageError('--schema is not valid JSON (give a JSON Schema inline, or @file)', { code: 'invalid_schema' });
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new UsageError('--schema must be a JSON Schema object', { code: 'invalid_schema' });
  }
  return schema as Record<string, unknown>;
}

/** A checker for answers; compiling also proves the schema itself is valid (a usage error if not). */
export async function compileSchema(schema: Record<string, unknown>): Promise<(answer: string) => unknown> {
  const Ajv = await loadAjv();
  const ajv = new Ajv({ allErrors: true, strict: false });
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
