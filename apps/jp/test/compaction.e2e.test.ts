import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicErrorResponse, anthropicStreamEvents, anthropicTextStream, anthropicToolUseStream, createWireServer, sseResponse, type ScriptedResponse, type WireServer } from '@jp/test-server';
import { expectOneLineError, makeSandbox, runJp } from './helpers/run-jp.ts';
import { runOnPty } from './helpers/pty.ts';

// Compaction (RFD 027) through the built binary: the event is appended and the old bytes stay; what
// the model is sent changes from then on (seen with --explain and on the Anthropic wire); a refusal
// for length is compacted and retried (auto = "on") or exits 3 naming the way out.

/** A file's text, distinct per name and version, of about `lines` × 30 bytes. */
const fileText = (name: string, lines: number, version = 0) => Array.from({ length: lines }, (_, i) => `${name} v${version} line ${i} ${'x'.repeat(12)}`).join('\n') + '\n';

describe('jp conversation compact', () => {
  const { root, env } = makeSandbox();
  let ws = '';
  let n = 0;

  /** A fresh workspace with a conversation of `turns` echo turns, each attaching its own file. */
  async function conversation(turns: number, lines = 40): Promise<{ id: string; events: string }> {
    ws = path.join(root, `ws${n++}`);
    mkdirSync(ws, { recursive: true });
    expect((await runJp(['init'], { cwd: ws, env })).code).toBe(0);
    for (let t = 0; t < turns; t++) {
      writeFileSync(path.join(ws, `f${t}.txt`), fileText(`f${t}`, lines));
      const result = await runJp(['q', ...(t === 0 ? ['--new'] : []), '-m', 'echo', '-a', `f${t}.txt`, `question ${t}`], { cwd: ws, env });
      expect(result.code, result.stderr).toBe(0);
    }
    const id = JSON.parse((await runJp(['c', 'ls', '-F', 'json'], { cwd: ws, env })).stdout).conversations[0].id as string;
    return { id, events: path.join(ws, '.jp', 'conversations', id, 'events.jsonl') };
  }
  const jp = (args: string[]) => runJp(args, { cwd: ws, env });
  /** The user messages of the Anthropic request `jp q --explain` would send now. */
  async function explained(query = 'next'): Promise<Array<Record<string, any>>> {
    const result = await jp(['q', '--explain', '-m', 'anthropic/claude-test', query]);
    expect(result.code, result.stderr).toBe(0);
    return (JSON.parse(result.stdout).request.messages as Array<Record<string, any>>).filter((message) => message.role === 'user');
  }
  const documentsOf = (message: Record<string, any>) => (message.content as Array<Record<string, any>>).filter((block) => block.type === 'document').map((block) => block.source.data as string);

  it('--keep-last 2 --resources: old contents become stubs with URI, MIME type and digest, the last two turns stay whole, old bytes stay', async () => {
    const { id, events } = await conversation(4);
    const before = readFileSync(events);
    const result = await jp(['c', 'compact', '--keep-last', '2', '--resources']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^compacted turns 0–1 \\(resources stubbed \\(URI and MIME type kept\\)\\) in ${id}: [\\d,]+ → [\\d,]+ bytes`));
    const after = readFileSync(events);
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    const added = after.subarray(before.length).toString('utf8').trimEnd().split('\n');
    expect(added).toHaveLength(1);
    expect(JSON.parse(added[0]!)).toMatchObject({ type: 'compaction', from: 0, to: 1, resources: 'stub' });

    const users = await explained();
    for (const t of [0, 1]) {
      const [doc] = documentsOf(users[t]!);
      expect(doc).toMatch(new RegExp(`^\\[compacted: file://${ws}/f${t}\\.txt \\(text/plain, \\d+ bytes, sha256 [0-9a-f]{64}\\), attached in turn ${t};`));
      expect(doc).not.toContain(`f${t} v0 line 0`);
    }
    for (const t of [2, 3]) expect(documentsOf(users[t]!)[0]).toBe(fileText(`f${t}`, 40));
    // The questions themselves stay.
    expect(users.map((message) => message.content[0].text)).toEqual(['question 0', 'question 1', 'question 2', 'question 3', 'next']);
  });

  it('--dry-run prints bytes and tokens before and after and writes nothing; -F json too', async () => {
    const { events } = await conversation(5);
    const before = readFileSync(events, 'utf8');
    const text = await jp(['c', 'compact', '--dry-run']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^would compact turn 0 \(reasoning stripped, tool results stubbed, resources stubbed \(URI and MIME type kept\)\) in \S+: [\d,]+ → [\d,]+ bytes, about [\d,]+ → [\d,]+ tokens sent\n$/);
    const json = await jp(['c', 'compact', '--dry-run', '--keep-last', '1', '-F', 'json']);
    const data = JSON.parse(json.stdout);
    expect(data).toMatchObject({ dryRun: true, compaction: { type: 'compaction', from: 0, to: 3, reasoning: 'strip', tools: 'strip-results', resources: 'stub' } });
    expect(data.after.bytes).toBeLessThan(data.before.bytes);
    expect(data.before.tokens).toBe(Math.ceil(data.before.bytes / 4));
    expect(readFileSync(events, 'utf8')).toBe(before);
  });

  it('--reset cancels the compactions by appending an event; with none in force it writes nothing', async () => {
    const { events } = await conversation(3);
    expect((await jp(['c', 'compact', '--keep-last', '1', '--resources'])).code).toBe(0);
    expect(documentsOf((await explained())[0]!)[0]).toMatch(/^\[compacted: /);
    const reset = await jp(['c', 'compact', '--reset']);
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stdout).toMatch(/^reset the compactions/);
    const lines = readFileSync(events, 'utf8').trimEnd().split('\n');
    expect(lines.filter((line) => JSON.parse(line).type === 'compaction').map((line) => JSON.parse(line).reset ?? false)).toEqual([false, true]);
    expect(documentsOf((await explained())[0]!)[0]).toBe(fileText('f0', 40));
    const again = await jp(['c', 'compact', '--reset']);
    expect(again.stdout).toMatch(/^nothing to reset in \S+: the conversation has no compaction in force/);
    expect(readFileSync(events, 'utf8').trimEnd().split('\n')).toHaveLength(lines.length);
  });

  it('a file attached again after its only delivered copy was compacted is sent whole, not as a reference', async () => {
    await conversation(2);
    // Without compaction, the same content again is a reference to turn 0.
    const plain = await explained();
    expect(plain).toHaveLength(3);
    const again = async () => {
      const result = await jp(['q', '--explain', '-m', 'anthropic/claude-test', '-a', 'f0.txt', 'again']);
      return (JSON.parse(result.stdout).request.messages as Array<Record<string, any>>).at(-1)!;
    };
    expect(documentsOf(await again())[0]).toMatch(/^\[unchanged: same content as file:\/\/.*f0\.txt attached in turn 0/);
    expect((await jp(['c', 'compact', '--keep-last', '1', '--resources'])).code).toBe(0);
    expect(documentsOf(await again())[0]).toBe(fileText('f0', 40));
  });

  it('a fork after a compaction is sent what its source is sent; --until-turn carries the compaction cut to its turns', async () => {
    const { id } = await conversation(4);
    expect((await jp(['c', 'compact', '--keep-last', '1', '--resources'])).code).toBe(0);
    const source = await explained();
    const fork = (await jp(['c', 'fork', '--activate'])).stdout.trim();
    expect(fork).not.toBe(id);
    expect(await explained()).toEqual(source);
    expect((await jp(['c', 'use', id])).code).toBe(0);
    const partial = (await jp(['c', 'fork', id, '--until-turn', '1', '--activate'])).stdout.trim();
    expect(partial).not.toBe(id);
    const users = await explained();
    expect(users).toHaveLength(3);
    // Cache breakpoints sit on the last user messages, which differ: compared without them.
    const withoutCache = (messages: unknown) => JSON.parse(JSON.stringify(messages), (key, value) => (key === 'cache_control' ? undefined : value));
    expect(withoutCache(users.slice(0, 2))).toEqual(withoutCache(source.slice(0, 2)));
    expect(documentsOf(users[1]!)[0]).toMatch(/^\[compacted: /);
  });

  it('show and -F json show the compaction where it was appended; the turns as stored', async () => {
    await conversation(3);
    expect((await jp(['c', 'compact', '--keep-last', '1', '--reasoning', '--resources'])).code).toBe(0);
    const shown = await jp(['c', 'show']);
    expect(shown.stdout).toContain('compaction: from here on, turns 0–1 are sent with reasoning stripped, resources stubbed');
    expect(shown.stdout).toContain('user: question 0');
    const json = JSON.parse((await jp(['c', 'show', '-F', 'json'])).stdout);
    expect(json.events.at(-1)).toMatchObject({ type: 'compaction', from: 0, to: 1 });
    expect(json.events.find((event: any) => event.type === 'chat_request').resources[0].text).toBe(fileText('f0', 40));
  });

  it('auto = "ask" on a terminal asks near the window: yes compacts, no sends as it is', async () => {
    const { events } = await conversation(6, 200);
    // A window the next request comes near (about 95 %), and that compacting turns 0–2 leaves room in.
    const { before } = JSON.parse((await jp(['c', 'compact', '--dry-run', '-F', 'json'])).stdout);
    const window = Math.round(before.tokens * 1.05);
    writeFileSync(path.join(ws, '.jp', 'config.toml'), `${readFileSync(path.join(ws, '.jp', 'config.toml'), 'utf8')}\n[providers.echo.models.echo]\ncontext_window = ${window}\n`);
    const compactions = () => readFileSync(events, 'utf8').split('\n').filter((line) => line.includes('"type":"compaction"')).length;
    const no = await runOnPty(root, ['q', 'not now'], { cwd: ws, env, answers: [['Compact older turns first', 'n\r']] });
    expect(no.code, no.terminal).toBe(0);
    expect(no.terminal).toMatch(new RegExp(`this request is about [\\d,]+ tokens, \\d+ % of echo's ${window.toLocaleString('en-US')}-token window\\. Compact older turns first \\(.*\\), to about [\\d,]+ tokens\\?`));
    expect(compactions()).toBe(0);
    const yes = await runOnPty(root, ['q', 'now'], { cwd: ws, env, answers: [['Compact older turns first', 'y\r']] });
    expect(yes.code, yes.terminal).toBe(0);
    expect(yes.terminal).toMatch(/compacted turns 0–2 /);
    expect(compactions()).toBe(1);
  });

  it('a compaction that would not make the request smaller is refused (exit 1, both numbers) unless --force; auto never writes one', async () => {
    // Turns with nothing to strip: no resources, tools or reasoning; a summary by echo is longer than they are.
    ws = path.join(root, `ws${n++}`);
    mkdirSync(ws, { recursive: true });
    expect((await runJp(['init'], { cwd: ws, env })).code).toBe(0);
    for (let t = 0; t < 6; t++) expect((await jp(['q', ...(t === 0 ? ['--new'] : []), '-m', 'echo', `question ${t}`])).code).toBe(0);
    const id = JSON.parse((await jp(['c', 'ls', '-F', 'json'])).stdout).conversations[0].id as string;
    const events = path.join(ws, '.jp', 'conversations', id, 'events.jsonl');
    const before = readFileSync(events, 'utf8');
    const numbers = /\(([\d,]+) → ([\d,]+) bytes, about ([\d,]+) → ([\d,]+) tokens sent\)/;
    for (const args of [['c', 'compact'], ['c', 'compact', '--summarize']]) {
      const refused = await jp(args);
      expectOneLineError(refused, 1, new RegExp(`^jp: compacting ${id} would not make the request smaller .+; nothing was written: --force writes it anyway$`));
      const [, from, to] = numbers.exec(refused.stderr)!;
      expect(Number(to!.replace(/,/g, ''))).toBeGreaterThanOrEqual(Number(from!.replace(/,/g, '')));
      expect(readFileSync(events, 'utf8')).toBe(before);
    }
    const json = await jp(['-F', 'json', 'c', 'compact', '--dry-run']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ dryRun: true, refused: 'not smaller' });
    // jp q --compact is refused before anything is sent or stored.
    expectOneLineError(await jp(['q', '--compact', '-m', 'echo', 'x']), 1, /^jp: --compact: compacting would not make the request smaller \(.+\); nothing was compacted or sent/);
    expect(readFileSync(events, 'utf8')).toBe(before);
    // Near a tiny window, auto = "on" finds nothing that shrinks the request and writes nothing.
    const auto = await jp(['-c', 'conversation.compaction.auto=on', '-c', 'providers.echo.models.echo.context_window=100', 'q', '-m', 'echo', 'y']);
    expect(auto.code, auto.stderr).toBe(0);
    expect(auto.stderr).toMatch(/would not make enough room/);
    expect(readFileSync(events, 'utf8')).not.toContain('"type":"compaction"');
    const forced = await jp(['c', 'compact', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(events, 'utf8').trimEnd().split('\n').filter((line) => line.includes('"type":"compaction"'))).toHaveLength(1);
  });

  it('bad options are one line and exit 2; nothing written', async () => {
    const { events } = await conversation(1);
    const before = readFileSync(events, 'utf8');
    expectOneLineError(await jp(['c', 'compact', '--keep-last', 'two']), 2, /--keep-last takes a number of turns/);
    expectOneLineError(await jp(['c', 'compact', '--tools', 'sideways']), 2, /--tools takes one of strip-results/);
    expectOneLineError(await jp(['c', 'compact', '--reset', '--resources']), 2, /--reset cancels the earlier compactions and takes no other option/);
    const nothing = await jp(['c', 'compact']);
    expect(nothing.stdout).toMatch(/^nothing to compact in \S+: the conversation has 1 turn, and the first 0 and last 4 are kept/);
    expect(readFileSync(events, 'utf8')).toBe(before);
  });
});

describe('compaction against a provider (Anthropic wire server)', () => {
  const { root, env: base } = makeSandbox();
  const env = { ...base, ANTHROPIC_API_KEY: 'k' };
  let server: WireServer;
  /** Requests whose body is over this are refused as too long (0: none). */
  let limit = 0;
  let ws = '';
  let n = 0;

  beforeAll(async () => {
    server = await createWireServer({
      // A summary's own request is never refused: the tests refuse the conversation's.
      refuse: (request) => (limit > 0 && request.rawBody.length > limit && !request.rawBody.includes('about to be compacted') ? anthropicErrorResponse(400, { type: 'invalid_request_error', message: `prompt is too long: ${request.rawBody.length} tokens > ${limit} maximum` }) : undefined),
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  const jp = (args: string[]) => runJp(['-c', `providers.anthropic.base_url=${JSON.stringify(server.url)}`, ...args], { cwd: ws, env });
  async function conversation(turns: number): Promise<string> {
    ws = path.join(root, `ws${n++}`);
    mkdirSync(ws, { recursive: true });
    expect((await runJp(['init'], { cwd: ws, env })).code).toBe(0);
    for (let t = 0; t < turns; t++) {
      writeFileSync(path.join(ws, `f${t}.txt`), fileText(`f${t}`, 100));
      server.enqueue(measured(`answer ${t}`));
      const result = await jp(['q', ...(t === 0 ? ['--new'] : []), '-m', 'anthropic/claude-test', '-a', `f${t}.txt`, `question ${t}`]);
      expect(result.code, result.stderr).toBe(0);
    }
    const id = JSON.parse((await jp(['c', 'ls', '-F', 'json'])).stdout).conversations[0].id as string;
    return path.join(ws, '.jp', 'conversations', id, 'events.jsonl');
  }
  /** An answer whose usage counts the request as a vendor would (about 4 bytes a token), so jp's estimate has a real base. */
  const measured = (text: string): ScriptedResponse => ({
    type: 'handler',
    handle: (request, response) => {
      const { chunks } = sseResponse(anthropicStreamEvents([{ type: 'text', text }], { usage: { input_tokens: Math.ceil(request.rawBody.length / 4), output_tokens: 5 } }));
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const chunk of chunks) response.write(chunk);
      response.end();
    },
  });
  const lines = (file: string) => readFileSync(file, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, any>);
  const textOf = (body: any) => JSON.stringify(body.messages);

  it('--summarize stores the summary the model wrote and sends it in place of the turns, listing their resources', async () => {
    const events = await conversation(3);
    const sent = server.requests.length;
    server.enqueue(anthropicTextStream('SUMMARY: we read f0 and f1 and chose plan B.'));
    const result = await jp(['c', 'compact', '--keep-last', '1', '--summarize']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^compacted turns 0–1 \(summarised\)/);
    // The summary request: the conversation through turn 1, then the summary prompt.
    const asked = server.requests[sent]!.body as any;
    expect(asked.messages.at(-1).content.at(-1).text).toMatch(/^This conversation is about to be compacted/);
    expect(textOf(asked)).toContain('question 1');
    expect(textOf(asked)).not.toContain('question 2');
    expect(lines(events).at(-1)).toMatchObject({ type: 'compaction', from: 0, to: 1, summary: { text: 'SUMMARY: we read f0 and f1 and chose plan B.', model: 'anthropic/claude-test' } });

    server.enqueue(anthropicTextStream('ok'));
    expect((await jp(['q', 'go on'])).code).toBe(0);
    const next = server.requests.at(-1)!.body as any;
    expect(next.messages[0].content[0].text).toMatch(/^\[jp: turns 0–1 of this conversation were compacted; the answer below summarises them \(written by anthropic\/claude-test\)\.\]/);
    expect(next.messages[0].content[0].text).toMatch(/- file:\/\/.*\/f0\.txt \(text\/plain, \d+ bytes, turn 0\)/);
    expect(next.messages[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'SUMMARY: we read f0 and f1 and chose plan B.' }] });
    expect(textOf(next)).not.toContain('question 0');
    expect(textOf(next)).toContain('question 2');
  });

  it('auto = "on": a request refused as too long is compacted and asked again; the turn is stored once', async () => {
    const events = await conversation(6);
    const before = lines(events);
    const sent = server.requests.length;
    // The last request fitted; the next one is longer by an answer and a question.
    limit = server.requests.at(-1)!.rawBody.length + 10;
    server.enqueue(anthropicTextStream('fits now'));
    try {
      const result = await jp(['-c', 'conversation.compaction.auto="on"', 'q', 'one more']);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe('fits now\n');
      expect(result.stderr).toMatch(/jp: anthropic refused the request as too long; compacted turns 0–1 /);
    } finally {
      limit = 0;
    }
    expect(server.requests.length).toBe(sent + 2);
    expect(server.requests[sent + 1]!.rawBody.length).toBeLessThan(server.requests[sent]!.rawBody.length);
    const after = lines(events);
    const added = after.slice(before.length);
    expect(added.map((event) => event.type)).toEqual(['compaction', 'turn_start', 'chat_request', 'chat_response']);
    expect(added.filter((event) => event.type === 'chat_request').map((event) => event.content)).toEqual(['one more']);
  });

  it('auto = "on" mid tool loop: the refused call is made again after compacting; the tool ran once, the turn is stored once', async () => {
    const events = await conversation(6);
    const before = lines(events).length;
    const uri = `file://${ws}/f5.txt`;
    // The first call fits and asks for a tool; the second, longer by the tool result, is refused once.
    limit = server.requests.at(-1)!.rawBody.length + 200;
    server.enqueue(anthropicToolUseStream({ id: 'toolu_9', name: 'refresh_resource', input: { uri } }), measured('done'));
    const sent = server.requests.length;
    try {
      const result = await jp(['-c', 'conversation.compaction.auto="on"', 'q', 'refresh f5']);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr.match(/jp: running tool refresh_resource/g)).toHaveLength(1);
      expect(result.stderr).toMatch(/refused the request as too long; compacted turns 0–1 /);
    } finally {
      limit = 0;
    }
    // 1: the tool call; 2: refused; 3: the same round again, compacted.
    expect(server.requests.length).toBe(sent + 3);
    expect(JSON.stringify((server.requests[sent + 2]!.body as any).messages.at(-1))).toContain('toolu_9');
    const added = lines(events).slice(before).map((event) => event.type);
    expect(added).toEqual(['compaction', 'turn_start', 'chat_request', 'tool_call_request', 'tool_call_response', 'chat_response']);
  });

  it('auto = "on" writes no compaction that would not shrink the refused request: exit 3, nothing stored', async () => {
    const events = await conversation(3);
    const before = readFileSync(events, 'utf8');
    limit = server.requests.at(-1)!.rawBody.length + 10;
    // The summary the model writes is longer than the turns it would replace.
    server.enqueue(anthropicTextStream(`SUMMARY ${'and so on '.repeat(4000)}`));
    try {
      const result = await jp(['-c', 'conversation.compaction.auto="on"', '-c', 'conversation.compaction.summarize=true', '-c', 'conversation.compaction.keep_last=1', '-c', 'providers.anthropic.models."claude-test".max_output_tokens=1000', 'q', 'one more']);
      expectOneLineError(result, 3, /nothing is left to compact by \[conversation\.compaction\] \(it would not make the request smaller \([\d,]+ → [\d,]+ bytes/);
    } finally {
      limit = 0;
    }
    expect(readFileSync(events, 'utf8')).toBe(before);
  });

  it('auto = "off": the refusal is exit 3, one line naming jp conversation compact, nothing stored', async () => {
    const events = await conversation(2);
    const before = readFileSync(events, 'utf8');
    limit = 10;
    try {
      const result = await jp(['-c', 'conversation.compaction.auto="off"', 'q', 'one more']);
      expectOneLineError(result, 3, /anthropic: the conversation is too long for the model \(400: prompt is too long: .*\); make room with `jp conversation compact`/);
    } finally {
      limit = 0;
    }
    expect(readFileSync(events, 'utf8')).toBe(before);
  });

  it('near the configured window, auto = "on" compacts before sending and says so in one line', async () => {
    const events = await conversation(6);
    server.enqueue(measured('ok'));
    const config = path.join(ws, '.jp', 'config.toml');
    const window = (tokens: number) => writeFileSync(config, `${readFileSync(config, 'utf8')}\n[providers.anthropic.models."claude-test"]\ncontext_window = ${tokens}\n`);
    const plain = readFileSync(config, 'utf8');
    window(4000);
    const result = await jp(['-c', 'conversation.compaction.auto="on"', 'q', 'near the edge']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^jp: this request is about [\d,]+ tokens, \d+ % of anthropic\/claude-test's 4,000-token window; compacted turns 0–1 /m);
    expect(lines(events).filter((event) => event.type === 'compaction')).toHaveLength(1);
    // -c keys stay with the conversation: "ask" is set back. Without a terminal it sends as it is, with a note.
    server.enqueue(measured('ok'));
    writeFileSync(config, plain);
    window(100);
    const asked = await jp(['-c', 'conversation.compaction.auto="ask"', 'q', 'again']);
    expect(asked.code, asked.stderr).toBe(0);
    expect(asked.stderr).toMatch(/`jp conversation compact` makes room/);
    expect(lines(events).filter((event) => event.type === 'compaction')).toHaveLength(1);
  });

  it('refresh_resource still reads a compacted URI again, and the model gets the content in the tool result', async () => {
    await conversation(3);
    expect((await jp(['c', 'compact', '--keep-last', '1', '--resources'])).code).toBe(0);
    const uri = `file://${ws}/f0.txt`;
    writeFileSync(path.join(ws, 'f0.txt'), fileText('f0', 100, 1));
    server.enqueue(anthropicToolUseStream({ id: 'toolu_1', name: 'refresh_resource', input: { uri } }), measured('read it'));
    const result = await jp(['q', 'what is in f0 now?']);
    expect(result.code, result.stderr).toBe(0);
    const second = server.requests.at(-1)!.body as any;
    expect(JSON.stringify(second.messages[0])).toContain('[compacted: ');
    const toolResult = JSON.stringify(second.messages.at(-1));
    expect(toolResult).toContain('tool_result');
    expect(toolResult).toContain('f0 v1 line 99');
  });

  it('jp q --compact compacts by the configured rules, then asks', async () => {
    const events = await conversation(5);
    server.enqueue(anthropicTextStream('ok'));
    const result = await jp(['q', '--compact', 'compacted?']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/jp: compacted turn 0 \(reasoning stripped, tool results stubbed, resources stubbed/);
    const body = server.requests.at(-1)!.body as any;
    expect(body.messages[0].content[1].source.data).toMatch(/^\[compacted: /);
    expect(lines(events).filter((event) => event.type === 'compaction')).toHaveLength(1);
  });
});
