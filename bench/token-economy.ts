// What a 60-turn session costs on Anthropic's prompt cache under each superseded-snapshot policy
// (RFD 020), against the "re-resolve every attachment and prepend it at turn 0" baseline.
//
//   node --import tsx bench/token-economy.ts [--no-check]      (build first: cd apps/jp && npx tsup)
//
// The session is scripted through the built binary: every turn, `jp query --explain -m
// anthropic/claude-test` prints the exact wire request jp would send (cache breakpoints included),
// then `jp query -m echo` stores the turn. A 40 KB file is attached at turn 0 and edited and
// re-attached 10 times; other files are attached at turns 0, 5 and 17; turns are 30 s apart, and
// three idle gaps of 430 s (longer than Anthropic's default 5-minute cache) come before turns 20,
// 36 and 48. The clock is moved with JP_TEST_CLOCK_OFFSET_SECS (apps/jp/src/clock.ts), so no
// real waiting is needed.
//
// The bill (anthropic-bill.ts): tokens ≈ bytes / 4 of the request (system, tools and messages, cache markers
// removed). A breakpoint's prefix is cached for 300 s after it was last written or read. Each
// request reads the longest breakpoint prefix still cached (0.1×), writes the rest up to its last
// breakpoint (1.25×) and pays the tail after it at 1×. Costs are input-token equivalents, and
// dollars at $3 per million input tokens. Output tokens are the same under every policy and left
// out. The baseline is built from the keep session's requests: every document moved to turn 0,
// the newest of each URI, with jp's breakpoints (and once more without any prompt cache). Anthropic also finds a hit a few blocks before a breakpoint; jp's breakpoint on the
// previous user message makes that unnecessary here, and the model leaves it out.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { bill as billRequests, type Bill, type Sent } from './anthropic-bill.ts';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyAnthropicCacheControl } from '../packages/providers/src/anthropic/apply-anthropic-cache-control.ts';
import type { MessageCreateParamsStreaming, MessageParam } from '../packages/providers/src/anthropic/anthropic-types.ts';

const BIN = process.env.JP_BIN ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/jp/dist/jp.js');
const TURNS = 60;
const TTL_SECS = 300;
const STEP_SECS = 30;
const GAP_SECS = 430;
const GAPS_BEFORE = [20, 36, 48];
const EDITS = [3, 8, 13, 19, 24, 30, 35, 41, 47, 53]; // the 40 KB file edited and re-attached
const OTHERS: Record<number, Array<[string, number]>> = { 0: [['README.md', 4]], 5: [['spec.md', 16]], 17: [['diff.txt', 6]] };

function lines(seed: string, kib: number, version = 0): string {
  const out: string[] = [];
  for (let i = 0; out.join('\n').length < kib * 1024; i++) {
    // An edit changes a tenth of the lines; the rest stay.
    const v = i % 10 === version % 10 ? version : 0;
    out.push(`${seed} line ${i} v${v} ${createHash('sha256').update(`${seed}${i}${v}`).digest('hex').slice(0, 40)}`);
  }
  return out.join('\n') + '\n';
}

function run(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`jp ${args.join(' ')}: exit ${code}: ${stderr}`))));
  });
}

/** One scripted session under a policy; the Anthropic request of every turn. */
async function session(policy: string, gaps: boolean): Promise<Sent[]> {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'jp-token-economy-')));
  const ws = path.join(root, 'project');
  mkdirSync(ws, { recursive: true });
  const env = { PATH: process.env.PATH, HOME: path.join(root, 'home'), XDG_CONFIG_HOME: path.join(root, 'home', '.config'), NO_COLOR: '1' };
  await run(['init'], ws, env);
  writeFileSync(path.join(ws, 'main.ts'), lines('main', 40));
  const sent: Sent[] = [];
  let at = 0;
  for (let turn = 0; turn < TURNS; turn++) {
    if (turn > 0) at += STEP_SECS + (gaps && GAPS_BEFORE.includes(turn) ? GAP_SECS : 0);
    const attach: string[] = [];
    if (turn === 0) attach.push('main.ts');
    const edit = EDITS.indexOf(turn);
    if (edit >= 0) {
      writeFileSync(path.join(ws, 'main.ts'), lines('main', 40, edit + 1));
      attach.push('main.ts');
    }
    for (const [name, kib] of OTHERS[turn] ?? []) {
      writeFileSync(path.join(ws, name), lines(name, kib));
      attach.push(name);
    }
    const args = [...attach.flatMap((file) => ['--attach', file]), `question ${turn}: what changed?`];
    const turnEnv = { ...env, JP_TEST_CLOCK_OFFSET_SECS: String(at) };
    const config = ['-c', `conversation.history.superseded=${policy}`];
    const explained = JSON.parse(await run([...config, 'query', ...(turn === 0 ? ['--new'] : []), '--explain', '-m', 'anthropic/claude-test', ...args], ws, turnEnv));
    sent.push({ at, request: explained.request });
    await run([...config, 'query', ...(turn === 0 ? ['--new'] : []), '-m', 'echo', ...args], ws, turnEnv);
  }
  return sent;
}

/** The baseline from the same session: every document taken out of its turn, the newest of each URI prepended to turn 0. */
function prepended(request: MessageCreateParamsStreaming): MessageCreateParamsStreaming {
  const clean = JSON.parse(JSON.stringify(request, (key, value: unknown) => (key === 'cache_control' ? undefined : value))) as MessageCreateParamsStreaming;
  const newest = new Map<string, unknown>();
  const messages = clean.messages.map((message): MessageParam => {
    if (!Array.isArray(message.content)) return message;
    const kept = message.content.filter((block) => {
      if (block.type !== 'document') return true;
      const uri = String((block as { context?: string }).context);
      newest.delete(uri); // the newest copy, in the order files were last attached
      newest.set(uri, block);
      return false;
    });
    return { ...message, content: kept } as MessageParam;
  });
  const first = messages[0]!;
  messages[0] = { ...first, content: [...(first.content as unknown[]), ...newest.values()] } as MessageParam;
  const resources = newest.size > 0 ? { message: 0, block: (messages[0].content as unknown[]).length - 1 } : undefined;
  return applyAnthropicCacheControl({ ...clean, messages }, resources);
}

const bill = (requests: Sent[], forgiving = false): Bill => billRequests(requests, { ttlSecs: TTL_SECS, forgiving });

const [keep, omit, cold, cheaper, keepSteady, coldSteady, cheaperSteady] = await Promise.all([
  session('keep', true),
  session('omit', true),
  session('omit-when-cold', true),
  session('omit-when-cheaper', true),
  session('keep', false),
  session('omit-when-cold', false),
  session('omit-when-cheaper', false),
]);
const rows: Array<[string, Bill]> = [
  ['keep', bill(keep)],
  ['omit', bill(omit)],
  ['omit-when-cold', bill(cold)],
  ['omit-when-cheaper', bill(cheaper)],
  ['prepend at turn 0 (baseline)', bill(keep.map(({ at, request }) => ({ at, request: prepended(request) })))],
  ['floor: omit with a cache that forgives stubs (no policy can do better)', bill(omit, true)],
  ['prepend at turn 0, no prompt cache', bill(keep.map(({ at, request }) => ({ at, request: JSON.parse(JSON.stringify(prepended(request), (key, value: unknown) => (key === 'cache_control' ? undefined : value))) })))],
  ['keep, no idle gaps', bill(keepSteady)],
  ['omit-when-cold, no idle gaps', bill(coldSteady)],
  ['omit-when-cheaper, no idle gaps', bill(cheaperSteady)],
];
const k = (n: number) => `${(n / 1000).toFixed(1)} k`;
const base = rows[0]![1].cost;
console.log(`token economy: ${TURNS} turns, 40 KB file re-attached ${EDITS.length}×, idle gaps of ${GAP_SECS} s before turns ${GAPS_BEFORE.join(', ')}, cache TTL ${TTL_SECS} s`);
const baseline = rows[4]![1].cost;
const floor = rows[5]![1].cost;
console.log(`| session | cache read | cache write | uncached | cost (input-token equiv.) | $ at $3/MTok | × keep | × baseline |`);
console.log(`|---|---:|---:|---:|---:|---:|---:|---:|`);
for (const [name, b] of rows) {
  console.log(`| ${name} | ${k(b.read)} | ${k(b.write)} | ${k(b.uncached)} | ${k(b.cost)} | ${((b.cost * 3) / 1e6).toFixed(2)} | ${(b.cost / base).toFixed(3)} | ${(b.cost / baseline).toFixed(3)} |`);
}
const cost = Object.fromEntries(rows.map(([name, b]) => [name, b.cost]));
const checks: Array<[string, boolean]> = [
  ['omit-when-cold ≤ 0.7× keep', cost['omit-when-cold']! <= 0.7 * cost.keep!],
  ['omit-when-cold = keep without idle gaps', cost['omit-when-cold, no idle gaps'] === cost['keep, no idle gaps']],
  ['omit-when-cold ≤ 0.5× prepend baseline', cost['omit-when-cold']! <= 0.5 * cost['prepend at turn 0 (baseline)']!],
];
console.log(`the floor is ${(floor / baseline).toFixed(3)}× the prepend baseline; omit-when-cold is ${(cost['omit-when-cold']! / floor).toFixed(3)}× the floor`);
for (const [goal, ok] of checks) console.log(`${ok ? 'ok  ' : 'FAIL'} ${goal}`);
if (process.argv.includes('--per-turn')) for (const [name, b] of rows) console.log(name, b.perTurn.map((c) => Math.round(c)).join(' '));
if (checks.some(([, ok]) => !ok) && !process.argv.includes('--no-check')) process.exitCode = 1;
