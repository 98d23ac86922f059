#!/usr/bin/env node
// A local tool for tests: `node fixture-tool.mjs <mode>`. Reads its arguments (JSON) on stdin and
// answers in the way <mode> names — one mode per RFD 058 case and per failure jp must survive.
import { readFileSync } from 'node:fs';

const mode = process.argv[2];
const args = JSON.parse(readFileSync(0, 'utf8') || '{}');
const answers = process.env.JP_TOOL_ANSWERS ? JSON.parse(process.env.JP_TOOL_ANSWERS) : undefined;
const out = (value) => process.stdout.write(typeof value === 'string' ? value : JSON.stringify(value));

switch (mode) {
  case 'echo-args':
    out({ content: [{ type: 'text', text: `args ${JSON.stringify(args)} cwd ${process.cwd()}` }] });
    break;
  case 'mint':
    // Resources under whatever URIs it is given: what a tool (or a model steering it) can name.
    out({ content: (args.uris ?? []).map((uri) => ({ type: 'resource', resource: { uri, mimeType: 'text/plain', text: args.text ?? 'minted\n' } })) });
    break;
  case 'text':
    out({ content: [{ type: 'text', text: 'Check succeeded.' }] });
    break;
  case 'resources':
    out({
      content: [
        { type: 'resource', resource: { uri: 'file:src/a.rs', mimeType: 'text/x-rust', text: 'fn a() {}' } },
        { type: 'resource', resource: { uri: 'https://example.test/logo.png', mimeType: 'image/png', blob: 'iVBORw0KGgo=' } },
      ],
    });
    break;
  case 'mixed':
    out({ content: [{ type: 'text', text: 'before' }, { type: 'resource', resource: { uri: 'file:b.txt', text: 'bee' } }, { type: 'text', text: 'after' }] });
    break;
  case 'malformed':
    out({ content: [{ type: 'text', text: 'kept' }, { type: 'resource', resource: { text: 'no uri here' } }, { type: 'text' }] });
    break;
  case 'error-meta':
    out({ content: [{ type: 'text', text: 'File not found: foo.rs' }], isError: true, _meta: { 'computer.jp/error': { transient: true, trace: ['ENOENT'] } } });
    break;
  case 'raw':
    out('plain words, not JSON\n');
    break;
  case 'question':
    if (answers?.confirm === undefined) {
      out({ content: [{ type: 'text', text: 'about to apply' }, { type: 'question', question: { id: 'confirm', text: 'Apply?', schema: { type: 'boolean' }, default: true } }] });
    } else {
      out({ content: [{ type: 'text', text: `applied=${answers.confirm}` }] });
    }
    break;
  case 'question-no-default':
    out({ content: [{ type: 'question', question: { id: 'branch', text: 'Which branch?', schema: { type: 'string' } } }] });
    break;
  case 'fail-no-json':
    process.stderr.write('line one\nsomething went wrong\n');
    process.exit(3);
    break;
  case 'hang':
    setInterval(() => {}, 1000);
    break;
  case 'flood': {
    const chunk = 'x'.repeat(1024 * 1024);
    for (let i = 0; i < 50; i++) process.stdout.write(chunk);
    break;
  }
  case 'exit137':
    process.kill(process.pid, 'SIGKILL');
    break;
  case 'hostile': {
    // Escape sequences (argv[3]) everywhere a tool can put text: a block type jp warns about, a
    // text block, and stderr.
    const text = process.argv[3] ?? '';
    process.stderr.write(`${text}\n`);
    out({ content: [{ type: `kind${text}` }, { type: 'text', text }] });
    break;
  }
  case 'hostile-question': {
    const text = process.argv[3] ?? '';
    if (answers?.pick === undefined) {
      out({ content: [{ type: 'question', question: { id: 'pick', text: `Pick one${text}`, schema: { type: 'string', enum: [`evil${text}`, 'plain'] }, default: 'plain' } }] });
    } else {
      out({ content: [{ type: 'text', text: `picked ${JSON.stringify(answers.pick)}` }] });
    }
    break;
  }
  case 'fake-json':
    out('{"content": [{"type": "text", "text": "unterminated');
    break;
  default:
    process.stderr.write(`unknown mode ${mode}\n`);
    process.exit(2);
}
