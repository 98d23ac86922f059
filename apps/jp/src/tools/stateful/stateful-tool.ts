import type { ToolDefinition } from '@jp/providers';
import type { Config } from '../../config/config-schema.ts';
import { answerQuestion } from '../answer-question.ts';
import { checkToolArguments } from '../check-tool-arguments.ts';
import { errorResult, type JpTool, type ToolResult } from '../jp-tool.ts';
import type { HandleReply, SpawnHandle } from './handle.ts';
import { HandleInputError } from './handle-input-error.ts';
import { MAX_WAIT_MS, STATEFUL_ACTIONS, statefulParameters, type StatefulAction } from './stateful-parameters.ts';

type LocalToolConfig = Config['tools'][string];

/** Output kept per handle before the oldest bytes are dropped. */
export const HANDLE_BUFFER_BYTES = 1024 * 1024;
/** Between SIGTERM and SIGKILL when a handle is aborted. */
export const HANDLE_GRACE_MS = 2000;
/** A handle's longest life when `max_runtime_secs` is not set. */
export const DEFAULT_MAX_RUNTIME_SECS = 1800;

/** A handle's reply as a tool result: its state first, for the model, and in `_meta` (RFD 058). */
export function handleResult(tool: string, id: string, reply: HandleReply): ToolResult {
  const state = reply.status === 'stopped' && reply.exitCode !== undefined ? (reply.exitCode === null ? 'stopped (killed by a signal)' : `stopped (exit ${reply.exitCode})`) : reply.status;
  return {
    content: [{ type: 'text', text: `handle ${id} of ${tool}: ${state}` }, ...reply.content],
    isError: reply.isError,
    _meta: { 'computer.jp/status': reply.status },
  };
}

/**
 * A `tools.<name>` program with `stateful` set: the model spawns it under a handle id, then
 * fetches its output, applies input and aborts it, across the rounds of one query (RFD 019).
 */
export function createStatefulTool(name: string, config: LocalToolConfig, factory: SpawnHandle): JpTool {
  const actions = (config.actions ?? [...STATEFUL_ACTIONS]) as StatefulAction[];
  const own: ToolDefinition = { name, description: config.description, parameters: config.parameters };
  const definition: ToolDefinition = {
    name,
    description: `${config.description}\n\nA long-running program: call with action ${actions.join(' | ')} and a handle id.`,
    parameters: statefulParameters(actions, config.parameters),
  };
  const precheck = ({ action, id }: Record<string, unknown>): string | undefined => {
    if (typeof action !== 'string' || !(actions as string[]).includes(action)) {
      return `tool ${name}: unknown action ${JSON.stringify(action ?? null)}; use one of ${actions.join(', ')}`;
    }
    if (typeof id !== 'string' || id === '') return `tool ${name}: "id" must name a handle (a non-empty string)`;
    return undefined;
  };
  return {
    definition,
    run: config.run,
    // Approving the spawn approves the program: fetching its output, its input and its abort are
    // the handle's own business, within its max_runtime_secs.
    asks: ({ action }) => action === 'spawn',
    precheck,
    async call(args, ctx) {
      const handles = ctx.handles;
      if (handles === undefined) return errorResult(`tool ${name} keeps a program running, which this command does not support`);
      const wrong = precheck(args);
      if (wrong !== undefined) return errorResult(wrong);
      const { action, id, wait_ms: waitMs, input, ...rest } = args as { action: StatefulAction; id: string } & Record<string, unknown>;
      try {
        switch (action) {
          case 'spawn': {
            const invalid = await checkToolArguments(own, rest);
            if (invalid !== undefined) return errorResult(`invalid arguments for ${name}: ${invalid}`);
            const reply = await handles.spawn(
              name,
              id,
              factory,
              {
                command: config.command,
                args: config.args,
                cwd: ctx.workspaceRoot,
                env: process.env,
                arguments: rest,
                graceMs: HANDLE_GRACE_MS,
                bufferBytes: HANDLE_BUFFER_BYTES,
                askUser: (question) => ctx.prompt(() => answerQuestion(question, ctx.interactive)),
                warn: (message) => ctx.output.warn(`tool ${name}: ${message}`),
              },
              (config.max_runtime_secs ?? DEFAULT_MAX_RUNTIME_SECS) * 1000,
            );
            return handleResult(name, id, reply);
          }
          case 'fetch': {
            const handle = handles.get(name, id);
            if (waitMs !== undefined && (typeof waitMs !== 'number' || !Number.isInteger(waitMs) || waitMs < 0 || waitMs > MAX_WAIT_MS)) {
              return errorResult(`tool ${name}: "wait_ms" must be an integer from 0 to ${MAX_WAIT_MS}`);
            }
            // The per-tool timeout bounds one wait; max_runtime_secs bounds the handle's life.
            const wait = Math.min(typeof waitMs === 'number' ? waitMs : 0, config.timeout_secs * 1000);
            return handleResult(name, id, handles.delivered(id, await handle.fetch(wait, ctx.signal)));
          }
          case 'apply': {
            const handle = handles.get(name, id);
            if (input === undefined) return errorResult(`tool ${name}: apply needs "input"`);
            return handleResult(name, id, handles.delivered(id, await handle.apply(input, ctx.signal)));
          }
          case 'abort': {
            const handle = handles.get(name, id);
            return handleResult(name, id, handles.delivered(id, await handle.abort()));
          }
        }
      } catch (error) {
        if (error instanceof HandleInputError) return errorResult(`tool ${name}: ${error.message}`);
        throw error;
      }
    },
  };
}
