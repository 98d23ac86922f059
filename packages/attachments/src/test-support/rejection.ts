import { AttachmentError } from '@jp/core';
import { expect } from 'vitest';

/** The error `promise` rejects with, checked to be a `type` (a promise that resolves fails the test). */
export async function rejectionOf<E extends Error>(promise: Promise<unknown>, type: abstract new (...args: never[]) => E): Promise<E> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(type);
  return error as E;
}

/** The `AttachmentError` a handler's promise rejects with. */
export function attachmentError(promise: Promise<unknown>): Promise<AttachmentError> {
  return rejectionOf(promise, AttachmentError);
}
