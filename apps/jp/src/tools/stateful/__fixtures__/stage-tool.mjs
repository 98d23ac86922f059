// A stateful protocol tool for tests (RFD 019): reads NDJSON commands on stdin, writes NDJSON
// RFD 058 responses on stdout. The spawn arguments' `scenario` picks the behaviour.
import { spawn } from 'node:child_process';
import { closeSync, writeFileSync } from 'node:fs';
import readline from 'node:readline';

const received = [];
const text = (value) => ({ type: 'text', text: value });
const question = (id, label, target) => ({
  type: 'question',
  question: { id, text: label, schema: { type: 'string', enum: ['y', 'n'] }, default: 'y' },
  ...(target ? { _meta: { 'computer.jp/target': target } } : {}),
});
const send = (status, content) => process.stdout.write(`${JSON.stringify({ content, _meta: { 'computer.jp/status': status } })}\n`);
// Exits once everything written has reached the pipe (process.exit alone may drop queued writes).
const exitAfterOutput = (code) => process.stdout.write('', () => process.exit(code));
const keepAlive = () => setInterval(() => {}, 1000);

const scenarios = {
  // spawn → running; apply "start" → waiting (hunk_1, for the model); its answer → waiting (hunk_2,
  // for the user); that answer → stopped with every command received, then exit 0.
  stage: {
    spawn() {
      send('running', [text(`ready; pid ${process.pid}`)]);
    },
    apply(command) {
      if (command.id === undefined && command.input === 'start') send('waiting', [text('hunk 1: +a'), question('hunk_1', 'Stage hunk 1?')]);
      else if (command.id === 'hunk_1') send('waiting', [text('hunk 2: +b'), question('hunk_2', 'Stage hunk 2?', 'user')]);
      else if (command.id === 'hunk_2') {
        send('stopped', [text(`commands: ${JSON.stringify(received)}`)]);
        exitAfterOutput(0);
      } else send('running', [text(`unexpected: ${JSON.stringify(command)}`)]);
    },
    abort() {
      send('stopped', [text('aborted by request')]);
      exitAfterOutput(0);
    },
  },
  // Lines that are not responses, a bad block and an unknown status, then a good response.
  malformed: {
    spawn() {
      process.stdout.write('not json at all\n');
      process.stdout.write(`${JSON.stringify({ content: [{ type: 'text' }, text('good block')], _meta: { 'computer.jp/status': 'running' } })}\n`);
      process.stdout.write(`${JSON.stringify({ content: [text('never seen')], _meta: { 'computer.jp/status': 'paused' } })}\n`);
      process.stdout.write('{"content": [\n');
      send('running', [text('after the bad lines')]);
      keepAlive();
    },
  },
  // Exits with 3 and a message on stderr, never saying "stopped".
  exit: {
    spawn() {
      send('running', [text('starting')]);
      process.stderr.write('fatal: config missing\n', () => exitAfterOutput(3));
    },
  },
  // Closes stdout and keeps running.
  'close-stdout': {
    spawn() {
      send('running', [text(`closing stdout; pid ${process.pid}`)]);
      closeSync(1);
      keepAlive();
    },
  },
  // Starts a child in its group, ignores the abort command and SIGTERM.
  stubborn: {
    spawn() {
      process.on('SIGTERM', () => {});
      const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
      send('running', [text(`pid ${process.pid} child ${child.pid}`)]);
      keepAlive();
    },
    abort() {},
  },
  // Answers after a pause, so a waiting fetch has something to wait for.
  slow: {
    spawn(command) {
      setTimeout(() => send('running', [text('late output')]), command.arguments.delay_ms ?? 500);
      keepAlive();
    },
  },
  // Two questions for the model in one response; stops once both are answered.
  'two-questions': {
    spawn() {
      send('waiting', [question('first', 'First?'), text('between'), question('second', 'Second?')]);
    },
    apply(command) {
      if (command.id === 'second') {
        send('stopped', [text(`commands: ${JSON.stringify(received.slice(1))}`)]);
        exitAfterOutput(0);
      }
    },
  },
  // One response every `interval_ms`, each carrying the wall-clock time it was written (for the bench).
  ticker: {
    spawn(command) {
      const { interval_ms: interval, count } = command.arguments;
      let sent = 0;
      const timer = setInterval(() => {
        send(sent + 1 === count ? 'stopped' : 'running', [text(String(performance.timeOrigin + performance.now()))]);
        if (++sent === count) {
          clearInterval(timer);
          exitAfterOutput(0);
        }
      }, interval);
    },
  },
  // Many responses at once, then a marker file once all are written, then stopped.
  flood: {
    spawn(command) {
      const { count, marker } = command.arguments;
      for (let i = 0; i < count; i++) send('running', [text(`line ${i} ${'x'.repeat(1000)}`)]);
      send('stopped', [text('flood done')]);
      process.stdout.write('', () => {
        writeFileSync(marker, 'done');
        process.exit(0);
      });
    },
  },
};

let scenario;
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const command = JSON.parse(line);
  received.push(command);
  if (command.action === 'spawn') scenario = scenarios[command.arguments.scenario];
  scenario?.[command.action]?.(command);
});
