import { appendFileSync, readFileSync, truncateSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { lastJson, makeWorkspace, showEvents, type Workspace } from './helpers/store-harness.ts';

/** The raw text of a conversation's events.jsonl. */
const eventsFile = (w: Workspace, id: string) => path.join(w.ws, '.jp', 'conversations', id, 'events.jsonl');

/** Every newline-terminated line of the file parses as JSON; returns them. */
function wholeLines(text: string): string[] {
  expect(text.endsWith('\n')).toBe(true);
  const lines = text.slice(0, -1).split('\n');
  for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
  return lines;
}

describe('the end of events.jsonl, edited by hand or torn by a crash', () => {
  let w: Workspace;
  let id = '';

  beforeAll(async () => {
    w = await makeWorkspace('jp-store-tail-');
    const first = await w.jp(['-F', 'json', 'query', '--new', '-m', 'echo', 'one']);
    expect(first.code, first.stderr).toBe(0);
    id = lastJson(first.stdout).conversation;
    expect((await w.jp(['query', '--id', id, 'two'])).code).toBe(0);
  }, 60_000);

  it('a last line without its newline is a whole event: shown, kept, and ended by the next append', { timeout: 60_000 }, async () => {
    const file = eventsFile(w, id);
    const original = readFileSync(file, 'utf8');
    const lines = wholeLines(original);
    const before = await showEvents(w, id);
    expect(before.result.code, before.result.stderr).toBe(0);
    truncateSync(file, Buffer.byteLength(original) - 1);
    expect(readFileSync(file, 'utf8').endsWith('}')).toBe(true);

    const shown = await showEvents(w, id);
    expect(shown.result.code, shown.result.stderr).toBe(0);
    expect(shown.result.stderr).toBe('');
    expect(shown.events).toEqual(before.events);
    expect(shown.events.at(-1)).toMatchObject({ type: 'chat_response' });

    const next = await w.jp(['query', '--id', id, 'three']);
    expect(next.code, next.stderr).toBe(0);
    const after = readFileSync(file, 'utf8');
    // The old lines byte for byte, the old last one ended by a newline, then the new turn.
    expect(after.startsWith(original)).toBe(true);
    const added = wholeLines(after).slice(lines.length).map((line) => JSON.parse(line));
    expect(added.map((event) => event.type)).toEqual(['turn_start', 'chat_request', 'chat_response']);
    expect(added[1]).toMatchObject({ content: 'three' });
    const final = await showEvents(w, id);
    expect(final.events.slice(0, before.events.length)).toEqual(before.events);
    expect(final.events.slice(before.events.length).map((event) => event.type)).toEqual(['turn_start', 'chat_request', 'chat_response']);
  });

  it('half a JSON line is ignored with a one-line warning and cut off by the next append', { timeout: 60_000 }, async () => {
    const file = eventsFile(w, id);
    const whole = readFileSync(file, 'utf8');
    const lines = wholeLines(whole);
    const before = await showEvents(w, id);
    appendFileSync(file, '{"type":"turn_start","timestamp":"2026-11-');

    const shown = await showEvents(w, id);
    expect(shown.result.code, shown.result.stderr).toBe(0);
    expect(shown.events).toEqual(before.events);
    const warning = shown.result.stderr.trimEnd().split('\n');
    expect(warning, shown.result.stderr).toHaveLength(1);
    expect(warning[0]).toMatch(/events\.jsonl: ignored an incomplete last line \(\d+ bytes\) left by an interrupted write/);

    const next = await w.jp(['query', '--id', id, 'four']);
    expect(next.code, next.stderr).toBe(0);
    const after = readFileSync(file, 'utf8');
    expect(after.startsWith(whole)).toBe(true);
    expect(after).not.toContain('2026-11-{');
    const added = wholeLines(after).slice(lines.length).map((line) => JSON.parse(line));
    expect(added.map((event) => event.type)).toEqual(['turn_start', 'chat_request', 'chat_response']);
    expect(added[1]).toMatchObject({ content: 'four' });
    const again = await showEvents(w, id);
    expect(again.result.stderr).toBe('');
    expect(again.events.slice(0, before.events.length)).toEqual(before.events);
    expect(again.events).toHaveLength(before.events.length + 3);
  });
});
