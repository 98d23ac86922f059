// Errors only, with no zod: the CLI's start-up path imports this without loading the schemas.
export { ExitCode, JpError, isJpError } from './jp-error.ts';
export { UsageError } from './usage-error.ts';
export { AttachmentError } from './attachment-error.ts';
export { ProviderError } from './provider-error.ts';
export { LockedError } from './locked-error.ts';
