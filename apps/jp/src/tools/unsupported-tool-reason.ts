/**
 * A tool jp cannot call: `execution.taskSupport = "required"` means the server answers a plain
 * `tools/call` with an error and only runs the tool as an MCP task, which jp does not support yet.
 */
export function unsupportedToolReason(tool: { execution?: unknown }): string | undefined {
  const support = (tool.execution as { taskSupport?: unknown } | undefined)?.taskSupport;
  return support === 'required' ? 'it requires task-based execution (execution.taskSupport = "required"), which jp does not support yet' : undefined;
}
