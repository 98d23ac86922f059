import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ES module shared with the benchmark, without types
import { writeConversation } from '../../../bench/conversation-fixture.mjs';
import { hasChromium, launchChromium, noChromium } from './helpers/chromium.ts';
import { expectOneLineError, makeSandbox, runJp } from './helpers/run-jp.ts';
import { SmallTmpfs } from './helpers/small-tmpfs.ts';

/*
 * `jp conversation show --html` through the built binary, and the page it writes in a real
 * headless Chromium (RFD 022). The conversations are written the way the store writes them
 * (bench/conversation-fixture.mjs), with usage numbers chosen so bar heights can be checked.
 */

// The page's globals, as the functions evaluated in the browser use them (the tests compile without the DOM library).
interface PageElement {
  textContent: string | null;
  scrollIntoView(): void;
  getBoundingClientRect(): { width: number; height: number };
  checkVisibility(): boolean;
}
declare const document: { querySelectorAll(selector: string): ArrayLike<PageElement> };
declare const window: Record<string, unknown>;
declare function getComputedStyle(element: unknown): { fontFamily: string };

const sandbox = makeSandbox('jp-html-');
const ws = path.join(sandbox.root, 'ws');
const artifacts = path.join(path.dirname(fileURLToPath(import.meta.url)), 'artifacts');
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const SMALL = '0mx00000a-small';
const BIG = '0mx00000b-large';

const USAGE = [
  { inputTokens: 12_000, cacheWriteTokens: 10_000, outputTokens: 400 },
  { inputTokens: 14_000, cacheReadTokens: 10_000, cacheWriteTokens: 3_000, outputTokens: 900 },
  { inputTokens: 2_500, outputTokens: 100 },
  { inputTokens: 30_000, cacheReadTokens: 13_000, outputTokens: 2_000 },
];
const total = (u: Record<string, number | undefined>) => (u.inputTokens ?? 0) + (u.outputTokens ?? 0);
const SCRIPT_ANSWER = 'Here you go:\n\n<script>document.title = "pwned"; window.pwned = 1;</script>\n\n<img src="x" onerror="window.pwned = 2">\n\n**done**';
const binary = Buffer.alloc(5000, 7);

beforeAll(() => {
  mkdirSync(ws, { recursive: true });
  writeConversation(ws, {
    id: SMALL,
    title: 'Where did the tokens go?',
    baseConfig: { assistant: { model: 'anthropic/claude-sonnet-4-5' } },
    turns: USAGE.map((usage, i) => ({
      query: i === 0 ? 'Why is the build slow <really>?' : `follow-up ${i}`,
      answer: i === 1 ? SCRIPT_ANSWER : `Answer ${i} with \`code\`.`,
      usage,
      resources:
        i === 0
          ? [
              { uri: `file://${ws}/src/build.ts`, name: 'src/build.ts', mimeType: 'text/plain', content: 'export const slow = true;\n'.repeat(2000) },
              { uri: `file://${ws}/logo.png`, name: 'logo.png', mimeType: 'image/png', content: PNG },
              { uri: `file://${ws}/data.bin`, name: 'data.bin', mimeType: 'application/octet-stream', content: binary },
            ]
          : i === 2
            ? [{ uri: `file://${ws}/src/build.ts`, name: 'src/build.ts', mimeType: 'text/plain', content: 'export const slow = false;\n' }]
            : [],
      tools: i === 3 ? [{ name: 'grep', arguments: { pattern: 'slow' }, result: 'src/build.ts:1: export const slow' }] : [],
    })),
  });
  writeConversation(ws, {
    id: BIG,
    title: 'A thousand turns',
    turns: Array.from({ length: 1000 }, (_, i) => ({
      query: `question ${i}: what about part ${i}?`,
      answer: `Part ${i} is fine. ${'Some explanation. '.repeat(10)}`,
      usage: { inputTokens: 1000 + i * 10, cacheReadTokens: i * 8, outputTokens: 50 + (i % 7) * 10 },
      resources: i % 10 === 0 ? [{ uri: `file://${ws}/part${i}.txt`, mimeType: 'text/plain', content: `part ${i}\n`.repeat(300) }] : [],
    })),
  });
});

afterAll(() => rmSync(sandbox.root, { recursive: true, force: true }));

describe('jp conversation show --html (the command)', () => {
  it('writes .jp/local/html/<id>.html by default, out of git\'s sight, and prints its path', async () => {
    const result = await runJp(['conversation', 'show', SMALL, '--html'], { cwd: ws, env: sandbox.env });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`.jp/local/html/${SMALL}.html\n`);
    expect(existsSync(path.join(ws, `${SMALL}.html`))).toBe(false);
    const html = readFileSync(path.join(ws, '.jp', 'local', 'html', `${SMALL}.html`), 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('Why is the build slow &lt;really&gt;?');
  });

  it('writes where -o says, and gives the path in JSON', async () => {
    expectOneLineError(await runJp(['conversation', 'show', SMALL, '--html', '-o', 'out/page.html'], { cwd: ws, env: sandbox.env }), 1, /cannot write out\/page\.html: .*directory/);
    mkdirSync(path.join(ws, 'out'), { recursive: true });
    const ok = await runJp(['-F', 'json', 'conversation', 'show', SMALL, '--html', '-o', 'out/page.html'], { cwd: ws, env: sandbox.env });
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ id: SMALL, path: path.join(ws, 'out', 'page.html') });
    expect(existsSync(path.join(ws, 'out', 'page.html'))).toBe(true);
    expect(temporaryFiles(path.join(ws, 'out'))).toEqual([]);
  });

  it('on a full disk says so in one line and leaves no file, not even a temporary one', async () => {
    const disk = new SmallTmpfs('1m');
    try {
      disk.leaveFree(4096);
      const file = path.join(disk.dir, 'page.html');
      expectOneLineError(await runJp(['conversation', 'show', SMALL, '--html', '-o', file], { cwd: ws, env: sandbox.env }), 1, /could not write .*page\.html: the disk is full; free some space/);
      expect(readdirSync(disk.dir).filter((name) => name !== 'filler')).toEqual([]);
    } finally {
      disk.unmount();
    }
  });

  it('estimates the cost from the default price of the model, or from the configured one', async () => {
    const page = async (args: string[] = []) => {
      const result = await runJp([...args, 'conversation', 'show', SMALL, '--html', '-o', '-'], { cwd: ws, env: sandbox.env });
      expect(result.code, result.stderr).toBe(0);
      return /<dt>estimated cost<\/dt><dd>([^<]*)<\/dd>/.exec(result.stdout)![1];
    };
    // Sonnet 4.5: 22 500 uncached × $3 + 13 000 written × $3.75 + 23 000 read × $0.30 + 3 400 out × $15, per million.
    expect(await page()).toBe('about $0.1741'); // $0.17415
    // $1 per million for every kind: 61 900 tokens.
    const prices = ['input', 'output', 'cache_read', 'cache_write'].flatMap((key) => ['-c', `providers.anthropic.prices.claude-sonnet-4-5.${key}=1`]);
    expect(await page(prices)).toBe('about $0.0619');
  });

  it('takes -o and --open only with --html', async () => {
    expectOneLineError(await runJp(['conversation', 'show', SMALL, '-o', 'x.html'], { cwd: ws, env: sandbox.env }), 2, /-o\/--output goes with --html/);
    expectOneLineError(await runJp(['conversation', 'show', SMALL, '--open'], { cwd: ws, env: sandbox.env }), 2, /--open goes with --html/);
  });

  it('--open starts xdg-open with the file when there is a display, and says why not when there is none; neither fails', async () => {
    const bin = path.join(sandbox.root, 'bin');
    mkdirSync(bin, { recursive: true });
    const log = path.join(sandbox.root, 'opened.txt');
    writeFileSync(path.join(bin, 'xdg-open'), `#!/bin/sh\necho "$1" > ${log}\n`);
    chmodSync(path.join(bin, 'xdg-open'), 0o755);
    const env = { ...sandbox.env, PATH: `${bin}:${process.env.PATH}` };
    const headless = await runJp(['conversation', 'show', SMALL, '--html', '--open'], { cwd: ws, env });
    expect(headless.code).toBe(0);
    expect(headless.stderr).toMatch(/^jp: not opening .*\.html: no display \(DISPLAY and WAYLAND_DISPLAY are unset\).*\n$/);
    expect(existsSync(log)).toBe(false);
    const shown = await runJp(['conversation', 'show', SMALL, '--html', '--open'], { cwd: ws, env: { ...env, DISPLAY: ':99' } });
    expect(shown.code).toBe(0);
    for (let i = 0; i < 50 && !existsSync(log); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(readFileSync(log, 'utf8').trim()).toBe(path.join(ws, '.jp', 'local', 'html', `${SMALL}.html`));
    const noOpener = await runJp(['conversation', 'show', SMALL, '--html', '--open'], { cwd: ws, env: { ...sandbox.env, PATH: '/nonexistent', DISPLAY: ':99' } });
    expect(noOpener.code).toBe(0);
  });

  it('reads no blob it does not show: a missing binary blob is no error, a missing shown one is', async () => {
    const copy = path.join(sandbox.root, 'ws-missing');
    mkdirSync(copy, { recursive: true });
    const written: Map<string, { uri: string; file: string }> = writeConversation(copy, {
      id: SMALL,
      turns: [{ query: 'q', answer: 'a', resources: [{ uri: 'file:///x/data.bin', mimeType: 'application/octet-stream', content: binary }, { uri: 'file:///x/a.txt', mimeType: 'text/plain', content: 'shown text' }] }],
    });
    const file = (uri: string) => [...written.values()].find((blob) => blob.uri === uri)!.file;
    rmSync(file('file:///x/data.bin'));
    const ok = await runJp(['conversation', 'show', SMALL, '--html'], { cwd: copy, env: sandbox.env });
    expect(ok.code, ok.stderr).toBe(0);
    rmSync(file('file:///x/a.txt'));
    expectOneLineError(await runJp(['conversation', 'show', SMALL, '--html', '-o', 'again.html'], { cwd: copy, env: sandbox.env }), 1, /file:\/\/\/x\/a\.txt.*missing/);
    expect(existsSync(path.join(copy, 'again.html'))).toBe(false);
  });
});

const temporaryFiles = (dir: string): string[] => readdirSync(dir).filter((name) => name.endsWith('.tmp'));

describe.skipIf(!hasChromium)(`the page in headless Chromium${noChromium}`, () => {
  let browser: Browser;
  let close: () => Promise<void>;
  let page: Page;
  const requests: string[] = [];
  const violations: string[] = [];

  beforeAll(async () => {
    ({ browser, close } = await launchChromium());
    for (const id of [SMALL, BIG]) {
      const result = await runJp(['conversation', 'show', id, '--html'], { cwd: ws, env: sandbox.env });
      expect(result.code, result.stderr).toBe(0);
    }
    page = await browser.newPage();
    await page.setRequestInterception(true);
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith('file://') && !url.startsWith('data:')) requests.push(url);
      if (url.startsWith('file://') || url.startsWith('data:')) void request.continue();
      else void request.abort();
    });
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.goto(`file://${path.join(ws, '.jp', 'local', 'html', `${SMALL}.html`)}`, { waitUntil: 'load' });
  }, 60_000);

  afterAll(async () => close?.());

  it('draws one token bar per turn, each as tall as its stored usage in proportion', async () => {
    const heights = await page.$$eval('svg.tokens g.bar', (bars) =>
      bars.map((bar) => [...bar.querySelectorAll('rect')].reduce((sum, rect) => sum + rect.getBoundingClientRect().height, 0)),
    );
    expect(heights).toHaveLength(USAGE.length);
    const scale = heights[0]! / total(USAGE[0]!);
    heights.forEach((height, i) => expect(height / scale).toBeCloseTo(total(USAGE[i]!), -1));
    const parts = await page.$$eval('svg.tokens g.bar[data-turn="1"] rect', (rects) => rects.map((rect) => [rect.getAttribute('class'), rect.getBoundingClientRect().height]));
    // Turn 1: 1 000 uncached, 3 000 written, 10 000 read, 900 output.
    expect(parts.map(([cls]) => cls)).toEqual(['u', 'w', 'r', 'o']);
    expect((parts[2]![1] as number) / (parts[0]![1] as number)).toBeCloseTo(10, 1);
    expect(await page.$$eval('svg.bytes g.bar', (bars) => bars.length)).toBe(USAGE.length);
  });

  it('shows the numbers of a bar on hover and on focus', async () => {
    await page.hover('svg.tokens g.bar[data-turn="1"]');
    expect(await page.$eval('#readout', (el) => el.textContent)).toBe('turn 1: 1,000 uncached input, 3,000 cache write, 10,000 cache read, 900 output, 0 reasoning tokens');
    // An SVG element, so focused through the DOM (Tab reaches it too: it has tabindex="0").
    await page.$eval('svg.tokens g.bar[data-turn="3"]', (bar) => (bar as unknown as { focus(): void }).focus());
    expect(await page.$eval(':focus', (el) => el.getAttribute('data-turn'))).toBe('3');
    expect(await page.$eval('#readout', (el) => el.textContent)).toContain('turn 3: 17,000 uncached input');
  });

  it('shows the text of a query and the URI of a resource', async () => {
    const visible = async (text: string) =>
      page.evaluate((wanted) => {
        const all = Array.from(document.querySelectorAll('pre.text, code.uri'));
        const el = all.find((node) => node.textContent === wanted);
        if (!el) return false;
        el.scrollIntoView();
        const box = el.getBoundingClientRect();
        return el.checkVisibility() && box.width > 0 && box.height > 0;
      }, text);
    expect(await visible('Why is the build slow <really>?')).toBe(true);
    expect(await visible(`file://${ws}/src/build.ts`)).toBe(true);
    expect(await page.$eval('img[alt="logo.png"]', (img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(1);
  });

  it('attempts no network request, and its CSP lets its own style and script run', async () => {
    expect(requests).toEqual([]);
    expect(violations).toEqual([]);
    expect(await page.$eval('body', (body) => getComputedStyle(body).fontFamily)).toMatch(/system-ui/);
  });

  it('never runs a script from a model answer', async () => {
    expect(await page.title()).toBe('Where did the tokens go? — jp');
    expect(await page.evaluate(() => window.pwned)).toBeUndefined();
    expect(await page.$eval('#turn-1 .answer', (el) => el.textContent)).toContain('<script>document.title = "pwned"');
    expect(await page.$$eval('#turn-1 .answer script, #turn-1 .answer img', (els) => els.length)).toBe(0);
  });

  it('opens a 1 000-turn conversation whole, loading nothing, and keeps a screenshot', async () => {
    mkdirSync(artifacts, { recursive: true });
    const small = path.join(artifacts, 'conversation-html-small.png');
    await page.screenshot({ path: small as `${string}.png`, fullPage: true });
    // The same tab (its request interception still on): the big page must not load anything either.
    // Its load time is printed, not asserted: speed belongs in bench/ (issue 36), not in a test on a shared machine.
    const started = performance.now();
    await page.goto(`file://${path.join(ws, '.jp', 'local', 'html', `${BIG}.html`)}`, { waitUntil: 'load' });
    const elapsed = performance.now() - started;
    expect(await page.$$eval('svg.tokens g.bar', (bars) => bars.length)).toBe(1000);
    expect(await page.$$eval('section.turn', (sections) => sections.length)).toBe(1000);
    expect(requests).toEqual([]);
    const shot = path.join(artifacts, 'conversation-html.png');
    await page.screenshot({ path: shot as `${string}.png` });
    console.log(`the 1 000-turn page loaded in ${Math.round(elapsed)} ms; screenshots (not compared): ${shot}, ${small}`);
  }, 30_000);
});

/*
 * The page's layout, looked at as a reader would at a desktop width and a phone's, and checked by
 * geometry: the boxes the browser laid out (getBoundingClientRect) and the styles it computed, not
 * pixels. Screenshots are kept as artifacts for people to look at, never compared.
 */
const LAYOUT = '0mx00000c-layout';
const EMPTY = '0mx00000d-empty';
const WIDE_ROW = Array.from({ length: 9 }, (_, i) => `column number ${i} with words`);
const LAYOUT_ANSWER = [
  '# A heading the model wrote',
  '',
  'Some text, then a table:',
  '',
  `| ${WIDE_ROW.join(' | ')} |`,
  `|${WIDE_ROW.map(() => '---').join('|')}|`,
  `| ${WIDE_ROW.map((_, i) => String(i)).join(' | ')} |`,
  '',
  '```ts',
  'const answer: number = 42; // the answer',
  '```',
  '',
  '> a quoted line',
].join('\n');

/** Measures the page in the browser: plain JavaScript, evaluated there. */
const MEASURE = `(() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height }; };
  const series = (cls) => {
    const plot = document.querySelector('svg.' + cls);
    const axis = plot.closest('.plot-row').querySelector('svg.y-axis');
    const bars = [...plot.querySelectorAll('g.bar')].map((g) => [...g.querySelectorAll('rect')].map(box)).filter((rects) => rects.length > 0)
      .map((rects) => ({ left: Math.min(...rects.map((r) => r.left)), right: Math.max(...rects.map((r) => r.right)) }));
    return {
      plot: box(plot), axis: box(axis), scroll: box(plot.parentElement), section: box(plot.closest('section')),
      values: [...axis.querySelectorAll('text.axis')].map((t) => ({ text: t.textContent, ...box(t) })),
      turns: [...plot.querySelectorAll('text.turn-number')].map((t) => ({ text: t.textContent, ...box(t) })),
      titles: [...plot.closest('.plot-row').querySelectorAll('text.axis-title')].map((t) => t.textContent),
      empty: [...plot.querySelectorAll('text.empty')].map((t) => ({ text: t.textContent, ...box(t) })),
      bars,
    };
  };
  const style = (el, key) => el ? getComputedStyle(el)[key] : null;
  const q = (selector) => document.querySelector(selector);
  const tableScroll = q('.md .table-scroll');
  const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((h) => '.answer .md ' + h).join(', ');
  return {
    viewport: window.innerWidth, pageWidth: document.documentElement.scrollWidth,
    tokens: series('tokens'), bytes: series('bytes'),
    main: q('main') && box(q('main')),
    turnHeading: q('section.turn > h2') && { size: parseFloat(style(q('section.turn > h2'), 'fontSize')), ...box(q('section.turn > h2')) },
    answerHeading: q(HEADINGS) && { size: parseFloat(style(q(HEADINGS), 'fontSize')), ...box(q(HEADINGS)) },
    table: tableScroll && { box: box(tableScroll), scrollWidth: tableScroll.scrollWidth, clientWidth: tableScroll.clientWidth,
      cellBorder: parseFloat(style(q('.md td'), 'borderTopWidth')), cellBorderStyle: style(q('.md td'), 'borderTopStyle') },
    code: q('.md pre code.hljs') && { keyword: style(q('.md .hljs-keyword'), 'color'), comment: style(q('.md .hljs-comment'), 'color'), text: style(q('.md pre code.hljs'), 'color'), box: box(q('.md pre')) },
    quote: q('.md blockquote') && { border: parseFloat(style(q('.md blockquote'), 'borderLeftWidth')), borderStyle: style(q('.md blockquote'), 'borderLeftStyle'), box: box(q('.md blockquote')) },
  };
})()`;

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
  width: number;
  height: number;
}
type Labelled = Box & { text: string };
interface Series {
  plot: Box;
  axis: Box;
  scroll: Box;
  section: Box;
  values: Labelled[];
  turns: Labelled[];
  titles: string[];
  empty: Labelled[];
  bars: Array<{ left: number; right: number }>;
}
interface Measured {
  viewport: number;
  pageWidth: number;
  tokens: Series;
  bytes: Series;
  main: Box;
  turnHeading: Box & { size: number };
  answerHeading: (Box & { size: number }) | null;
  table: { box: Box; scrollWidth: number; clientWidth: number; cellBorder: number; cellBorderStyle: string } | null;
  code: { keyword: string; comment: string; text: string; box: Box } | null;
  quote: { border: number; borderStyle: string; box: Box } | null;
}

const overlap = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
/** A number as the axis writes it: `20k`, `1.5 KiB`, `0`. */
const axisValue = (text: string) => {
  const [, n, unit] = /^([\d.]+)\s*(k|M|B|KiB|MiB)?$/.exec(text)!;
  return Number(n) * ({ k: 1e3, M: 1e6, KiB: 1024, MiB: 1024 * 1024 }[unit as string] ?? 1);
};

// expect.soft: each layout check is reported on its own, so one fault does not hide the next.

/** What every chart must look like at any width: a full-width plot, a readable value axis, turn numbers apart. */
function expectReadableSeries(series: Series, turns: number, width: number): void {
  const where = `${width} px`;
  // The plot takes the section's width beside its value axis: no fifth of the page.
  expect.soft(series.axis.left, where).toBeCloseTo(series.section.left, 0);
  expect.soft(series.plot.left, where).toBeCloseTo(series.axis.right, 0);
  expect.soft(Math.abs(series.scroll.right - series.section.right), where).toBeLessThanOrEqual(1);
  expect.soft(series.plot.width / series.section.width, where).toBeGreaterThan(0.75);
  // Value labels: distinct, rising upward, apart, inside their column, as tall as text (never scaled down).
  const values = series.values.map((label) => label.text);
  expect.soft(new Set(values).size, `${where}: ${values.join(', ')}`).toBe(values.length);
  for (let i = 1; i < series.values.length; i++) {
    expect.soft(axisValue(series.values[i]!.text), where).toBeGreaterThan(axisValue(series.values[i - 1]!.text));
    expect.soft(series.values[i]!.top, where).toBeLessThan(series.values[i - 1]!.top);
    expect.soft(overlap(series.values[i]!, series.values[i - 1]!), `${where}: ${values[i - 1]} and ${values[i]} overlap`).toBe(false);
  }
  for (const label of [...series.values, ...series.turns]) {
    expect.soft(label.height, `${where}: ${label.text}`).toBeGreaterThanOrEqual(10);
    expect.soft(label.height, `${where}: ${label.text}`).toBeLessThan(20);
  }
  for (const label of series.values) expect.soft(label.left, `${where}: ${label.text} is cut`).toBeGreaterThanOrEqual(series.axis.left);
  // Turn numbers: in order, apart from each other, under the plot.
  expect.soft(series.turns.map((label) => Number(label.text))).toEqual([...series.turns.map((label) => Number(label.text))].sort((a, b) => a - b));
  for (let i = 1; i < series.turns.length; i++) expect.soft(overlap(series.turns[i]!, series.turns[i - 1]!), `${where}: turn numbers overlap`).toBe(false);
  expect.soft(series.titles).toContain('turn');
  // The bars spread over the plot: turn i's bar is centred in the i-th of `turns` equal slots.
  series.bars.forEach((bar, i) => {
    const centre = (bar.left + bar.right) / 2;
    expect.soft((centre - series.plot.left) / series.plot.width, `${where}: bar ${i}`).toBeCloseTo((i + 0.5) / turns, 2);
  });
}

describe.skipIf(!hasChromium)(`the page's layout in Chromium, at 1280 and 390 px wide${noChromium}`, () => {
  let close: () => Promise<void>;
  let page: Page;

  beforeAll(async () => {
    writeConversation(ws, {
      id: LAYOUT,
      title: 'Layout',
      baseConfig: { assistant: { model: 'anthropic/claude-sonnet-4-5' } },
      turns: [
        { query: 'first', answer: LAYOUT_ANSWER, usage: { inputTokens: 12_000, cacheWriteTokens: 10_000, outputTokens: 400 }, resources: [{ uri: `file://${ws}/a.txt`, mimeType: 'text/plain', content: 'a'.repeat(1300) }] },
        { query: 'second', answer: 'Fine.', usage: { inputTokens: 14_000, cacheReadTokens: 10_000, outputTokens: 900 } },
        { query: 'third', answer: 'Done.', usage: { inputTokens: 45_000, cacheReadTokens: 24_000, outputTokens: 2_000 } },
      ],
    });
    // No usage recorded, no resources: what a conversation with the echo model, or an old one, looks like.
    writeConversation(ws, { id: EMPTY, title: 'Nothing recorded', turns: [{ query: 'q', answer: 'a' }, { query: 'q2', answer: 'a2' }] });
    for (const id of [LAYOUT, EMPTY]) {
      const result = await runJp(['conversation', 'show', id, '--html'], { cwd: ws, env: sandbox.env });
      expect(result.code, result.stderr).toBe(0);
    }
    let browser: Browser;
    ({ browser, close } = await launchChromium());
    page = await browser.newPage();
    mkdirSync(artifacts, { recursive: true });
  }, 60_000);

  afterAll(async () => close?.());

  const open = async (id: string, width: number): Promise<Measured> => {
    await page.setViewport({ width, height: 900 });
    await page.goto(`file://${path.join(ws, '.jp', 'local', 'html', `${id}.html`)}`, { waitUntil: 'load' });
    await page.screenshot({ path: path.join(artifacts, `conversation-html-${id.split('-').at(-1)}-${width}.png`) as `${string}.png`, fullPage: true });
    return (await page.evaluate(MEASURE)) as Measured;
  };

  for (const width of [1280, 390]) {
    it(`${width} px: charts span the page with round, labelled axes; nothing is wider than the screen`, async () => {
      const m = await open(LAYOUT, width);
      expect.soft(m.pageWidth, 'the page scrolls sideways').toBeLessThanOrEqual(m.viewport);
      expectReadableSeries(m.tokens, 3, width);
      expectReadableSeries(m.bytes, 3, width);
      // The tallest turn has 47 000 tokens: round steps to 60k; 1 300 bytes: to 1.5 KiB.
      expect.soft(m.tokens.values.map((label) => label.text)).toEqual(['0', '20k', '40k', '60k']);
      expect.soft(m.bytes.values.map((label) => label.text)).toEqual(['0', '0.5 KiB', '1 KiB', '1.5 KiB']);
      expect.soft(m.tokens.turns.map((label) => label.text)).toEqual(['0', '1', '2']);
    });

    it(`${width} px: a table has ruled cells and scrolls in its own box, code is coloured by class, a quote has a bar, headings sit below the turn's`, async () => {
      const m = await open(LAYOUT, width);
      expect.soft(m.table).not.toBeNull();
      expect.soft(m.table?.cellBorder ?? 0).toBeGreaterThanOrEqual(1);
      expect.soft(m.table?.cellBorderStyle).toBe('solid');
      expect.soft(m.table?.box.right ?? Infinity).toBeLessThanOrEqual(m.main.right + 1);
      // Nine wide columns do not fit 390 px: the table scrolls inside its box, the page does not.
      if (width === 390) expect.soft(m.table?.scrollWidth ?? 0).toBeGreaterThan(m.table?.clientWidth ?? 0);
      expect.soft(m.code).not.toBeNull();
      expect.soft(m.code?.keyword).not.toBe(m.code?.text);
      expect.soft(m.code?.comment).not.toBe(m.code?.text);
      expect.soft(m.code?.keyword).not.toBe(m.code?.comment);
      expect.soft(m.code?.box.right ?? Infinity).toBeLessThanOrEqual(m.main.right + 1);
      expect.soft(m.quote).not.toBeNull();
      expect.soft(m.quote?.border ?? 0).toBeGreaterThanOrEqual(3);
      expect.soft(m.quote?.borderStyle).toBe('solid');
      expect.soft(m.answerHeading).not.toBeNull();
      expect.soft(m.answerHeading?.size ?? Infinity).toBeLessThan(m.turnHeading.size);
      expect.soft(m.answerHeading?.height ?? Infinity).toBeLessThanOrEqual(m.turnHeading.height);
    });

    it(`${width} px: a conversation with no usage and no resources says so, with one 0 on each axis`, async () => {
      const m = await open(EMPTY, width);
      expect.soft(m.pageWidth).toBeLessThanOrEqual(m.viewport);
      for (const [series, text] of [
        [m.tokens, 'no token usage recorded'],
        [m.bytes, 'no resources attached'],
      ] as const) {
        expect.soft(series.values.map((label) => label.text)).toEqual(['0']);
        expect.soft(series.empty.map((label) => label.text)).toEqual([text]);
        const note = series.empty[0]!;
        expect.soft(note.left).toBeGreaterThanOrEqual(series.plot.left);
        expect.soft(note.right).toBeLessThanOrEqual(series.plot.right);
        expectReadableSeries(series, 2, width);
      }
    });
  }
});
