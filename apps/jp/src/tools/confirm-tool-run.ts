import { promptConfirm } from '../output/terminal-prompts.ts';
import type { ToolCall } from '../turn/run-turn.ts';
import type { ToolRunContext } from './jp-tool.ts';

/**
 * For a tool whose policy is `ask`: `true` when the person at the terminal says yes; otherwise the
 * reason it does not run, which becomes the error result the model sees.
 */
export async function confirmToolRun(call: ToolCall, ctx: ToolRunContext): Promise<true | string> {
  if (!ctx.interactive) {
    return `tool ${call.name} needs confirmation (run = "ask") and there is no terminal; rerun with --allow-tools or set its run policy to "unattended"`;
  }
  const args = JSON.stringify(call.arguments);
  const yes = await ctx.prompt(() => promptConfirm(`Run tool ${call.name} ${args.length > 200 ? `${args.slice(0, 200)}…` : args}?`, true));
  return yes ? true : `the user declined to run tool ${call.name}`;
}
