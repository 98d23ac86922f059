import { afterEach, describe, expect, it } from 'vitest';
import { routeLibraryConsole } from './library-console.ts';

const saved = { log: console.log, info: console.info, debug: console.debug, warn: console.warn, error: console.error };

afterEach(() => Object.assign(console, saved));

describe('routeLibraryConsole', () => {
  it('keeps each method on its stream and shows what it prints visibly, format arguments included', () => {
    const written = { stdout: '', stderr: '' };
    const stream = (name: 'stdout' | 'stderr') => ({ write: (text: string) => ((written[name] += text), true) }) as unknown as NodeJS.WritableStream;
    routeLibraryConsole({ stdout: stream('stdout'), stderr: stream('stderr') });
    console.error('Could not parse message into JSON:', 'junk\x1b]52;c;eA==\x07');
    console.warn('%s says %d', '\u009b2J', 3);
    console.log('\x1b[2J');
    expect(written.stderr).toBe('Could not parse message into JSON: junk\\x1b]52;c;eA==\\x07\n\\x9b2J says 3\n');
    expect(written.stdout).toBe('\\x1b[2J\n');
  });
});
