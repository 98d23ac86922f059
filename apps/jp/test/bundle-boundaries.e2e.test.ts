import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { JP_BIN } from './helpers/run-jp.ts';

/*
 * What the built binary loads before a command knows what it needs. Every command starts with
 * commander and the core's errors; `jp query --attach DIR` then loads the read-ahead to start
 * reading. Neither may load zod or an SDK: the core's schemas arrive through `loadSchemas()`,
 * called only by code that validates, and the SDKs only by the code that
 * calls them (RFD 002, "Reading ahead").
 */

const dist = path.dirname(JP_BIN);

/** The chunks a chunk loads as it is imported: its static imports, followed (not `import()`). */
function staticClosure(chunk: string): string[] {
  const seen = new Set<string>();
  const visit = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    const text = readFileSync(path.join(dist, name), 'utf8');
    for (const match of text.matchAll(/^import\s+(?:[^'";]*?\s+from\s+)?['"]\.\/([^'"]+)['"];?$/gm)) visit(match[1]!);
  };
  visit(chunk);
  return [...seen];
}

/** The file built on its own for `jp q` with no text (tsup.config.ts): not a chunk of the CLI's. */
const EDITOR_FIRST = 'editor-first.js';

/** The chunk that defines `name` (the bundler keeps function names). */
function chunkDefining(name: string): string {
  const chunks = readdirSync(dist).filter((file) => file.endsWith('.js') && file !== EDITOR_FIRST);
  const found = chunks.filter((file) => readFileSync(path.join(dist, file), 'utf8').includes(`function ${name}(`));
  expect(found, `one chunk defines ${name}`).toHaveLength(1);
  return found[0]!;
}

/** Markers of what must not load: zod's sources and the SDKs', as the bundler names them in its comments. */
const HEAVY = [/node_modules\/\.pnpm\/zod@/, /@anthropic-ai\/sdk/, /node_modules\/\.pnpm\/openai@/, /@google\/genai/, /modelcontextprotocol\/sdk\/dist\/esm\/client/, /modelcontextprotocol\+client@/, /modelcontextprotocol\+server@/];

function heavyIn(chunks: readonly string[]): string[] {
  return chunks.flatMap((chunk) => {
    const text = readFileSync(path.join(dist, chunk), 'utf8');
    return HEAVY.filter((pattern) => pattern.test(text)).map((pattern) => `${chunk}: ${pattern.source}`);
  });
}

describe('what the binary loads before it knows what it needs', () => {
  it('starts every command without zod or an SDK', () => {
    const chunks = staticClosure(chunkDefining('buildProgram'));
    expect(heavyIn(chunks)).toEqual([]);
  });

  it('starts reading a directory ahead without zod or an SDK', () => {
    const chunks = staticClosure(chunkDefining('startEarlyRead'));
    expect(chunks.some((chunk) => readFileSync(path.join(dist, chunk), 'utf8').includes('function startReadAhead('))).toBe(true);
    expect(heavyIn(chunks)).toEqual([]);
  });

  it('completes a value on Tab without zod, an SDK or the CLI parser', () => {
    // Each kind of value is its own chunk, imported when that kind is asked for.
    const kinds = ['completeConversations', 'completeModels', 'completeMcpServers', 'completeAttachments'];
    const chunks = [...new Set([chunkDefining('completeCommand'), ...kinds.map(chunkDefining)].flatMap(staticClosure))];
    expect(heavyIn(chunks)).toEqual([]);
    expect(chunks.filter((chunk) => /node_modules\/\.pnpm\/commander@/.test(readFileSync(path.join(dist, chunk), 'utf8')))).toEqual([]);
  });

  it('loads the MCP server SDK only inside `jp mcp serve`, once it has found its workspace', () => {
    // `jp mcp ls|resources` use the client, never the server.
    expect(heavyIn(staticClosure(chunkDefining('mcpLs'))).filter((hit) => hit.includes('server@'))).toEqual([]);
    expect(heavyIn(staticClosure(chunkDefining('mcpServe')))).toEqual([]);
    expect(heavyIn(staticClosure(chunkDefining('serveConversations'))).some((hit) => hit.includes('modelcontextprotocol\\+server@'))).toBe(true);
  });

  it('would see zod where it is: the query command loads it', () => {
    const chunks = staticClosure(chunkDefining('queryCommand'));
    expect(heavyIn(chunks).some((hit) => hit.includes('zod@'))).toBe(true);
  });
});

describe('what `jp conversation show --html` loads, and when', () => {
  /** The page renderer's own markers: markdown-it and the renderer. */
  const HTML_VIEW = [/node_modules\/\.pnpm\/markdown-it@/, /function renderConversationHtml\(/];
  const htmlViewIn = (chunks: readonly string[]) =>
    chunks.flatMap((chunk) => {
      const text = readFileSync(path.join(dist, chunk), 'utf8');
      return HTML_VIEW.filter((pattern) => pattern.test(text)).map((pattern) => `${chunk}: ${pattern.source}`);
    });

  it('loads neither the Markdown renderer nor the page renderer at start-up, nor for a plain `conversation show`', () => {
    expect(htmlViewIn(staticClosure(chunkDefining('buildProgram')))).toEqual([]);
    expect(htmlViewIn(staticClosure(chunkDefining('conversationShow')))).toEqual([]);
    expect(htmlViewIn(staticClosure(chunkDefining('conversationShowHtml')))).toEqual([]);
  });

  it('would see them where they are: the chunk of the renderer holds markdown-it', () => {
    expect(htmlViewIn(staticClosure(chunkDefining('renderConversationHtml')))).toHaveLength(2);
  });
});

/** Which of `markers` the chunks hold, as `chunk: marker` lines. */
function markersIn(markers: readonly RegExp[], chunks: readonly string[]): string[] {
  return chunks.flatMap((chunk) => {
    const text = readFileSync(path.join(dist, chunk), 'utf8');
    return markers.filter((pattern) => pattern.test(text)).map((pattern) => `${chunk}: ${pattern.source}`);
  });
}

describe('what the editor flow loads, and when', () => {
  /** The editor's own code (its shell-words parser, shell-quote, is the cmd: handler's too). */
  const EDITOR = [/function editQuery\(/, /function runEditor\(/, /function renderTemplate\(/];
  const editorIn = (chunks: readonly string[]) => markersIn(EDITOR, chunks);

  it('loads none of it at start-up, nor for a query that has its text', () => {
    expect(editorIn(staticClosure(chunkDefining('buildProgram')))).toEqual([]);
    expect(editorIn(staticClosure(chunkDefining('queryCommand')))).toEqual([]);
  });

  it('would see it where it is: the chunk that edits holds the parser and the runner', () => {
    expect(editorIn(staticClosure(chunkDefining('editQuery')))).toHaveLength(3);
  });

  it('opens the editor before the CLI from one file: no chunk, no zod, no SDK, no commander, no registry', () => {
    // jp.ts imports it by name; it imports nothing of the split build (each chunk is a module to load).
    expect(readFileSync(path.join(dist, 'jp.js'), 'utf8')).toContain(`import('./${EDITOR_FIRST}')`);
    expect(staticClosure(EDITOR_FIRST)).toEqual([EDITOR_FIRST]);
    expect(editorIn([EDITOR_FIRST])).toHaveLength(3);
    const others = [/node_modules\/\.pnpm\/commander@/, /node_modules\/\.pnpm\/ignore@/, /node_modules\/\.pnpm\/picomatch@/, /function createAttachmentRegistry\(/, /function selectProvider\(/];
    expect([...heavyIn([EDITOR_FIRST]), ...markersIn(others, [EDITOR_FIRST])]).toEqual([]);
  });
});

describe('what `jp chat` loads, and when', () => {
  const CHAT = [/function chatLoop\(/, /function readMessage\(/, /PasteFilter = class/];
  const chatIn = (chunks: readonly string[]) => markersIn(CHAT, chunks);

  it('loads none of it at start-up nor for a query', () => {
    expect(chatIn(staticClosure(chunkDefining('buildProgram')))).toEqual([]);
    expect(chatIn(staticClosure(chunkDefining('queryCommand')))).toEqual([]);
  });

  it('would see it where it is: the chat command holds the loop, the prompt and the paste filter', () => {
    expect(chatIn(staticClosure(chunkDefining('chatCommand')))).toHaveLength(3);
  });
});

describe('what the Markdown renderer loads, and when', () => {
  /** The terminal renderer's own code and its highlighter. */
  const RENDER = [/node_modules\/\.pnpm\/highlight\.js@/, /function renderInline\(/, /function markdownWriter\(/];
  const renderIn = (chunks: readonly string[]) => markersIn(RENDER, chunks);

  it('loads none of it for --version, conversation ls, completion or a piped query', () => {
    for (const entry of ['buildProgram', 'conversationLs', 'completeCommand', 'queryCommand', 'runTurn']) {
      expect(renderIn(staticClosure(chunkDefining(entry))), entry).toEqual([]);
    }
  });

  it('would see it where it is: the writer holds the renderer and the highlighter', () => {
    expect(renderIn(staticClosure(chunkDefining('markdownWriter')))).toHaveLength(3);
  });
});
