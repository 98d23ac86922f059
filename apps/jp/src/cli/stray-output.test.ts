import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { guardStrayOutput, setStrayOutputMode } from './stray-output.ts';

const METHODS = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const;
let saved: { listeners: NodeJS.WarningListener[]; console: Record<string, unknown> };
let stderr: string[];

beforeEach(() => {
  saved = { listeners: process.listeners('warning'), console: Object.fromEntries(METHODS.map((m) => [m, console[m]])) };
  stderr = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (stderr.push(String(chunk)), true));
  vi.spyOn(process.stdout, 'write').mockImplementation(() => {
    throw new Error('nothing may reach stdout');
  });
  guardStrayOutput();
});

afterEach(() => {
  vi.restoreAllMocks();
  setStrayOutputMode({ verbose: false, format: 'text' });
  process.removeAllListeners('warning');
  for (const listener of saved.listeners) process.on('warning', listener);
  Object.assign(console, saved.console);
});

const nextTick = () => new Promise((resolve) => setImmediate(resolve));

describe('what Node and libraries print on their own', () => {
  it('never reaches stderr or stdout without -v', async () => {
    process.emitWarning('Possible EventTarget memory leak detected', 'MaxListenersExceededWarning');
    console.warn('unknown format "uri" ignored in schema at path "#"');
    console.log('a library talking');
    await nextTick();
    expect(stderr).toEqual([]);
  });

  it('is one line with -v, a JSON line with -v -F json', async () => {
    setStrayOutputMode({ verbose: true, format: 'text' });
    process.emitWarning('3000000000 does not fit into a 32-bit signed integer.\nTimeout duration was set to 1.', 'TimeoutOverflowWarning');
    await nextTick();
    setStrayOutputMode({ verbose: true, format: 'json' });
    console.error('failed', { code: 7 });
    expect(stderr).toEqual([
      'jp: warning (not from jp): TimeoutOverflowWarning: 3000000000 does not fit into a 32-bit signed integer.; Timeout duration was set to 1.\n',
      `${JSON.stringify({ warning: 'failed { code: 7 }' })}\n`,
    ]);
  });
});
