import {
  AttachmentRegistry,
  createCmdHandler,
  createFileHandler,
  createHttpHandler,
  createMcpHandler,
  type HandlerContext,
} from '@jp/attachments';
import type { Config } from '../config/config-schema.ts';
import { McpClientPool } from '../mcp/mcp-client-pool.ts';
import type { Output } from '../output/output.ts';
import { version } from '../version.ts';
import type { Workspace } from '../workspace/workspace.ts';
import { createJpUriHandler } from './jp-uri-handler.ts';

/** The registry of every built-in handler; with a workspace's `.jp/`, `jp://` URIs of its conversations too (RFD 033). */
export function createAttachmentRegistry(jpDir?: string): AttachmentRegistry {
  const handlers = [createFileHandler(), createHttpHandler({ userAgent: `jp/${version}` }), createCmdHandler(), createMcpHandler()];
  return new AttachmentRegistry(jpDir === undefined ? handlers : [...handlers, createJpUriHandler(jpDir)]);
}

export function handlerContext(workspace: Workspace, cwd: string, config: Config, output: Output): HandlerContext {
  const limits = config.conversation.attachment;
  return {
    workspaceRoot: workspace.root,
    cwd,
    limits: { maxResourceBytes: limits.max_bytes, maxFiles: limits.max_files, sizePolicy: limits.size_policy },
    fetchLimits: { maxBytes: limits.http.max_bytes, timeoutMs: limits.http.timeout_secs * 1000, maxRedirects: limits.http.max_redirects },
    commandLimits: { timeoutMs: limits.cmd.timeout_secs * 1000, maxOutputBytes: limits.cmd.max_output_bytes },
    logger: { warn: (message) => output.warn(message) },
    // Servers start only when an attachment needs one; the command closes the pool in its `finally`.
    mcp: Object.keys(config.mcp).length > 0 ? new McpClientPool(config.mcp, { workspaceRoot: workspace.root }) : undefined,
  };
}
