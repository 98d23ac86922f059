export {
  DEFAULT_LIMITS,
  type AttachmentHandler,
  type AttachmentLimits,
  type HandlerContext,
  type HandlerLogger,
} from './handler.ts';
export { AttachmentRegistry, createRegistry } from './registry.ts';
export { schemeOf } from './uri-scheme.ts';
export { createFileHandler } from './file/file-handler.ts';
export { textMimeType } from './file/file-mime-type.ts';
