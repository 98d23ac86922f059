import { AttachmentError } from '@jp/core';

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

export function isMissing(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * An `AttachmentError` for a failed file-system call, naming `label` (the input as the user gave
 * it) and never the absolute path from Node's own message.
 */
export function fsAttachmentError(input: string, label: string, error: unknown): AttachmentError {
  if (error instanceof AttachmentError) return error;
  const code = errorCode(error);
  const options = { code: 'file_error', cause: error };
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return new AttachmentError(input, `no such file or directory: ${label}; check the path (relative paths start at the current directory)`, { ...options, code: 'file_not_found' });
    case 'EACCES':
    case 'EPERM':
      return new AttachmentError(input, `cannot read ${label}: permission denied; fix its permissions or attach something else`, { ...options, code: 'file_permission_denied' });
    case 'ELOOP':
      return new AttachmentError(input, `cannot read ${label}: too many levels of symbolic links; fix the link`, options);
    case 'EIO':
    case 'EINVAL':
    case 'ENXIO':
      // A special file that opens but cannot be read from its start (e.g. /proc/self/mem).
      return new AttachmentError(input, `cannot read ${label}: the system refused the read (${code}); attach a regular file`, options);
    default:
      return new AttachmentError(input, `cannot read ${label}: ${code ?? 'unexpected error'}`, options);
  }
}

/** For a path that is a FIFO, socket or device: only regular files (and directories of them) are attached. */
export function notRegularFileError(input: string, label: string): AttachmentError {
  return new AttachmentError(input, `${label} is not a regular file (a FIFO, socket or device); attach a regular file or directory`, {
    code: 'file_not_regular',
  });
}
