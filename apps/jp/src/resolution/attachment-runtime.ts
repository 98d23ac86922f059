import { AttachmentRegistry, createFileHandler, type HandlerContext } from '@jp/attachments';
import type { Config } from '../config/config-schema.ts';
import type { Output } from '../output/output.ts';
import type { Workspace } from '../workspace/workspace.ts';

/** The registry of every built-in handler. */
export function createAttachmentRegistry(): AttachmentRegistry {
  return new AttachmentRegistry([createFileHandler()]);
}

export function handlerContext(workspace: Workspace, cwd: string, config: Config, output: Output): HandlerContext {
  const limits = config.conversation.attachment;
  return {
    workspaceRoot: workspace.root,
    cwd,
    limits: { maxResourceBytes: limits.max_bytes, maxFiles: limits.max_files, sizePolicy: limits.size_policy },
    logger: { warn: (message) => output.warn(message) },
  };
}
