import { loadSchemas, type ContentBlock, type InputRequest } from '@jp/core';
import { stderrTail } from '@jp/attachments';
import type { ToolDefinition } from '@jp/providers';
import type { Config } from '../config/config-schema.ts';
import { answerQuestion, UnansweredQuestion } from './answer-question.ts';
import { canonicalFileUri } from '../resolution/canonical-file-uri.ts';
import { errorResult, type JpTool, type ToolResult, type ToolRunContext } from './jp-tool.ts';
import { runToolProcess } from './run-tool-process.ts';

const { parseToolOutput } = await loadSchemas();

type LocalToolConfig = Config['tools'][string];

/** Questions a tool may ask in a row before jp gives up on it. */
const MAX_QUESTION_ROUNDS = 10;

/**
 * A program from `tools.<name>`: arguments as JSON on stdin, typed output on stdout (RFD 058).
 * When it asks questions, jp collects the answers and runs it again with the same arguments and
 * the answers as a JSON object in the environment variable `JP_TOOL_ANSWERS` (question id →
 * answer); its final run's output is the result.
 */
export function createLocalTool(name: string, config: LocalToolConfig): JpTool {
  const definition: ToolDefinition = { name, description: config.description, parameters: config.parameters };
  return {
    definition,
    run: config.run,
    async call(args, ctx) {
      const answers: Record<string, unknown> = {};
      for (let round = 0; round <= MAX_QUESTION_ROUNDS; round++) {
        const result = await runOnce(name, config, args, answers, ctx);
        if ('final' in result) return result.final;
        for (const question of result.questions) {
          try {
            answers[question.id] = await ctx.prompt(() => answerQuestion(question, ctx.interactive));
          } catch (error) {
            if (error instanceof UnansweredQuestion) return errorResult(`tool ${name} asked a ${error.message}`);
            throw error;
          }
        }
      }
      return errorResult(`tool ${name} kept asking questions (${MAX_QUESTION_ROUNDS} rounds); stopped`);
    },
  };
}

async function runOnce(
  name: string,
  config: LocalToolConfig,
  args: Record<string, unknown>,
  answers: Record<string, unknown>,
  ctx: ToolRunContext,
): Promise<{ final: ToolResult } | { questions: InputRequest[] }> {
  const env = Object.keys(answers).length > 0 ? { ...process.env, JP_TOOL_ANSWERS: JSON.stringify(answers) } : process.env;
  let run;
  try {
    run = await runToolProcess({
      command: config.command,
      args: config.args,
      cwd: ctx.workspaceRoot,
      input: JSON.stringify(args),
      env,
      timeoutMs: config.timeout_secs * 1000,
      maxOutputBytes: config.max_output_bytes,
      signal: ctx.signal,
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? `program ${config.command} not found` : (error as Error).message;
    return { final: errorResult(`tool ${name} could not be started: ${why}`) };
  }
  if (run.stopped === 'timeout') return { final: errorResult(`tool ${name} did not finish within ${config.timeout_secs} s and was stopped`) };
  if (run.stopped === 'output-limit') {
    return { final: errorResult(`tool ${name} printed more than ${config.max_output_bytes} bytes and was stopped`) };
  }
  if (run.stopped === 'aborted') return { final: errorResult(`tool ${name} was interrupted`) };

  const parsed = parseToolOutput(run.stdout, { canonicalizeUri: (uri) => canonicalFileUri(uri, ctx.workspaceRoot) });
  for (const warning of parsed.warnings) ctx.output.warn(`tool ${name}: ${warning}`);
  const failed = run.exitCode !== 0;
  if (failed && parsed.raw) {
    const how = run.signal ? `was killed by ${run.signal}` : `exited with ${run.exitCode}`;
    const tail = stderrTail(Buffer.from(run.stderr, 'utf8'));
    const stdout = run.stdout.trim() === '' ? [] : [{ type: 'text' as const, text: run.stdout }];
    return { final: { content: [{ type: 'text', text: `tool ${name} ${how}${tail ? `: ${tail}` : ''}` }, ...stdout], isError: true } };
  }
  const questions = parsed.content.filter((block): block is Extract<ContentBlock, { type: 'question' }> => block.type === 'question');
  if (questions.length > 0 && !failed) return { questions: questions.map((block) => block.question) };
  const content = parsed.content.length > 0 ? parsed.content : [{ type: 'text' as const, text: '(the tool returned no content)' }];
  return { final: { content, isError: parsed.isError || failed } };
}
