// A small long-running program for the stateful-tool tests: `node repl.mjs <mode>`.
//   repl      prints "ready> ", echoes each line as "echo: <line>", exits 0 on "quit" (printing nothing)
//   forever   starts a grandchild, prints "pid <own> <grandchild>" (and writes it to the file
//             argv[3] when given), and runs until killed (ignores stdin)
//   stubborn  like forever, but ignores SIGTERM
//   closed    closes stdout and stderr, keeps running
//   nostdin   closes its stdin, prints "closed", keeps running
//   flood     writes 3 MiB at once, then waits
//   fail      prints "bad" and exits 3
//   args      prints JP_TOOL_ARGUMENTS, then waits
//   trickle   prints "tick <n>" when it receives a line, for latency measurements
import { createInterface } from 'node:readline';

const mode = process.argv[2] ?? 'repl';
const keepAlive = () => setInterval(() => {}, 1 << 30);

switch (mode) {
  case 'repl': {
    process.stdout.write(`pid ${process.pid}\nready> `);
    const lines = createInterface({ input: process.stdin });
    lines.on('line', (line) => {
      // Silent on quit: the fetch that follows sees the exit, not a last line racing it.
      if (line === 'quit') process.exit(0);
      process.stdout.write(`echo: ${line}\nready> `);
    });
    break;
  }
  case 'forever': {
    const { spawn } = await import('node:child_process');
    const { writeFileSync } = await import('node:fs');
    const grandchild = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' });
    const line = `pid ${process.pid} ${grandchild.pid}`;
    if (process.argv[3]) writeFileSync(process.argv[3], line);
    process.stdout.write(`${line}\n`);
    keepAlive();
    break;
  }
  case 'stubborn':
    process.on('SIGTERM', () => process.stdout.write('ignoring SIGTERM\n'));
    process.stdout.write(`pid ${process.pid}\n`);
    keepAlive();
    break;
  case 'closed':
    process.stdout.write(`pid ${process.pid}\n`, () => {
      process.stdout.destroy();
      process.stderr.destroy();
    });
    keepAlive();
    break;
  case 'nostdin':
    (await import('node:fs')).closeSync(0);
    process.stdout.write('closed\n');
    keepAlive();
    break;
  case 'flood':
    process.stdout.write('x'.repeat(3 * 1024 * 1024));
    process.stdout.write('\nend of flood\n');
    keepAlive();
    break;
  case 'args':
    process.stdout.write(`args ${process.env.JP_TOOL_ARGUMENTS}\n`);
    keepAlive();
    break;
  case 'fail':
    process.stdout.write('bad\n');
    process.exitCode = 3;
    break;
  case 'trickle': {
    let n = 0;
    createInterface({ input: process.stdin }).on('line', () => process.stdout.write(`tick ${++n}\n`));
    break;
  }
  default:
    process.stderr.write(`unknown mode ${mode}\n`);
    process.exit(2);
}
