export interface ToolProcessResult {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** Why jp stopped it, when it did. */
  stopped?: 'timeout' | 'output-limit' | 'aborted' | undefined;
}

/**
 * Runs a tool program without a shell, in its own process group (so a timeout kills its children
 * too), with `input` on stdin. Output beyond `maxOutputBytes` stops the program.
 */
export function runToolProcess(options: {
  command: string;
  args: readonly string[];
  cwd: string;
  input: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs: number;
  maxOutputBytes: number;
  signal?: AbortSignal | undefined;
}): Promise<ToolProcessResult> {
  return new Promise((resolve, reject) => {
    // Loaded when a tool runs, not with the query command (`child_process` brings `net` along).
    const { spawn } = process.getBuiltinModule('node:child_process');
    const child = spawn(options.command, [...options.args], {
      cwd: options.cwd,
      env: options.env ?? process.env,
      shell: false,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let stopped: ToolProcessResult['stopped'];
    const stop = (why: NonNullable<ToolProcessResult['stopped']>) => {
      if (stopped !== undefined) return;
      stopped = why;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => stop('timeout'), options.timeoutMs);
    const onAbort = () => stop('aborted');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.byteLength;
      if (outBytes > options.maxOutputBytes) stop('output-limit');
      else stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      // Only the tail of stderr is ever shown; keep a bounded amount.
      errBytes += chunk.byteLength;
      stderr.push(chunk);
      while (errBytes > 64 * 1024 && stderr.length > 1) errBytes -= stderr.shift()!.byteLength;
    });
    child.stdin.on('error', () => {
      // A tool that exits without reading its input is fine.
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve({ stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8'), exitCode, signal, stopped });
    });
    child.stdin.end(options.input);
  });
}
