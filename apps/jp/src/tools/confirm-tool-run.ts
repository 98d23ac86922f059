import { promptSelect } from '../output/terminal-prompts.ts';
import type { ToolCall } from '../turn/run-turn.ts';
import type { ToolRunContext } from './jp-tool.ts';

/** The answers to "Run tool X?": once, not, or this tool for the rest of the turn. */
export type ToolApproval = 'yes' | 'no' | 'turn';

type Ask = (message: string, choices: readonly { name: string; value: ToolApproval }[], defaultValue: ToolApproval) => Promise<ToolApproval>;

/**
 * For a tool whose policy is `ask`: `true` when the person at the terminal says yes (or said "yes
 * for the rest of this turn" to this tool earlier in the turn); otherwise the reason it does not
 * run, which becomes the error result the model sees.
 */
export async function confirmToolRun(call: ToolCall, ctx: ToolRunContext, ask: Ask = promptSelect): Promise<true | string> {
  if (ctx.approvedForTurn?.has(call.name)) return true;
  if (!ctx.interactive) {
    return `tool ${call.name} needs confirmation (run = "ask") and there is no terminal; rerun with --allow-tools or set its run policy to "unattended"`;
  }
  const args = JSON.stringify(call.arguments);
  const choices = [
    { name: 'Yes', value: 'yes' as const },
    { name: 'No', value: 'no' as const },
    { name: `Yes, and run ${call.name} without asking for the rest of this turn`, value: 'turn' as const },
  ];
  const answer = await ctx.prompt(() => {
    // Another call of the same tool may have been approved for the turn while this one waited.
    if (ctx.approvedForTurn?.has(call.name)) return Promise.resolve<ToolApproval>('yes');
    return ask(`Run tool ${call.name} ${args.length > 200 ? `${args.slice(0, 200)}…` : args}?`, choices, 'yes');
  });
  if (answer === 'turn') ctx.approvedForTurn?.add(call.name);
  return answer === 'no' ? `the user declined to run tool ${call.name}` : true;
}
