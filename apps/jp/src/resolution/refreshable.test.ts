import { describe, expect, it } from 'vitest';
import type { ConversationEvent } from '@jp/core';
import { createAttachmentRegistry } from './attachment-runtime.ts';
import { mcpServerOfTool } from '../tools/mcp-tool-name.ts';
import { declarationsEver, originsByUri, refreshable, snapshotOrigins, type SnapshotOrigin } from './refreshable.ts';

const ROOT = '/ws';
const EXTERNAL = `external:${'a'.repeat(64)}/x.pdf`;
const DECLARED = ['cmd:touch /tmp/M', 'https://example.test/a', 'mcp+fixture+fixture://docs/readme', 'src/', EXTERNAL];
const registry = createAttachmentRegistry();
const hctx = { workspaceRoot: ROOT, cwd: ROOT, limits: { maxResourceBytes: 1, maxFiles: 1, sizePolicy: 'reject' as const }, logger: { warn() {} } };
const config = { mcp: { fixture: {}, other: {} }, tools: { mint: {}, mcp__fixture__evil: {} } } as never;

/** Who put the URI in the stream: the user (a `chat_request`), or a tool by name. */
const user: SnapshotOrigin[] = [{ uri: '' }];
const tool = (...names: string[]): SnapshotOrigin[] => names.map((name) => ({ uri: '', tool: name }));

function decide(uri: string, origins: SnapshotOrigin[], declarations: readonly string[] = DECLARED) {
  return refreshable(uri, {
    workspaceRoot: ROOT,
    origins: originsByUri([{ uri: 'file:///ws/other.txt' }, ...origins.map((origin) => ({ ...origin, uri }))]),
    declarations,
    covers: (declaration, candidate) => registry.covers(declaration, candidate, hctx),
    mcpServerOfTool: (name) => mcpServerOfTool(name, config),
  });
}

type Row = [what: string, uri: string, origins: SnapshotOrigin[], expected: string | RegExp];

// `expected` is the input that re-reads the URI, or a pattern of the refusal.
const ROWS: Row[] = [
  // (a) what the user attached, read through the handler of its declaration
  ['a declared command, attached', 'cmd:touch /tmp/M', user, 'cmd:touch /tmp/M'],
  ['a declared command a tool also returned', 'cmd:touch /tmp/M', tool('mint'), 'cmd:touch /tmp/M'],
  ['a declared URL', 'https://example.test/a', user, 'https://example.test/a'],
  ['a declared URL in another case of scheme and host (the same fetch)', 'HTTPS://EXAMPLE.test/a', tool('mint'), 'HTTPS://EXAMPLE.test/a'],
  ['a declared URL with a fragment (never sent, the same fetch)', 'https://example.test/a#top', tool('mint'), 'https://example.test/a#top'],
  ['a declared MCP resource, through its server', 'fixture://docs/readme', user, 'mcp+fixture+fixture://docs/readme'],
  ['a declared MCP resource another server also returned: the declaration decides', 'fixture://docs/readme', tool('mcp__other__embedded_resource'), 'mcp+fixture+fixture://docs/readme'],
  // (b) files in the workspace, from any source
  ['a workspace file a local tool returned', 'file:///ws/notes.txt', tool('mint'), 'file:///ws/notes.txt'],
  ['a workspace file an MCP tool returned', 'file:///ws/notes.txt', tool('mcp__fixture__embedded_resource'), 'file:///ws/notes.txt'],
  ['a file under a declared directory', 'file:///ws/src/a.rs', user, 'file:///ws/src/a.rs'],
  ['a workspace file, scheme in capitals (the handler takes it)', 'FILE:///ws/notes.txt', tool('mint'), 'FILE:///ws/notes.txt'],
  ['a workspace path through a symlink (the handler checks the real path)', 'file:///ws/link.txt', tool('mint'), 'file:///ws/link.txt'],
  ['/etc/passwd', 'file:///etc/passwd', tool('mint'), /outside the workspace/],
  ['dot-dot out of the workspace', 'file:///ws/../etc/passwd', tool('mint'), /outside the workspace/],
  ['encoded dot-dot', 'file:///ws/%2e%2e/etc/passwd', tool('mint'), /outside the workspace/],
  ['encoded DOT-DOT', 'file:///ws/%2E%2E/etc/passwd', tool('mint'), /outside the workspace/],
  ['capitals and dot-dot', 'FILE:///ws/../etc/passwd', tool('mint'), /outside the workspace/],
  ['another host', 'file://evil.test/ws/notes.txt', tool('mint'), /outside the workspace/],
  ['localhost, outside', 'file://localhost/etc/passwd', tool('mint'), /outside the workspace/],
  ['the workspace in another case (another directory)', 'file:///WS/notes.txt', tool('mint'), /outside the workspace/],
  ['a sibling directory sharing the prefix', 'file:///ws2/notes.txt', tool('mint'), /outside the workspace/],
  ['relative form, out', 'file:../etc/passwd', tool('mint'), /outside the workspace/],
  // (c) MCP resources, through the server whose tool returned them
  ["the fixture server's tool", 'fixture://env', tool('mcp__fixture__embedded_resource'), 'mcp+fixture+fixture://env'],
  ["another server's tool claiming the fixture's URI: read through that server", 'fixture://env', tool('mcp__other__embedded_resource'), 'mcp+other+fixture://env'],
  ['two servers returned it: the newest', 'fixture://env', tool('mcp__fixture__embedded_resource', 'mcp__other__embedded_resource'), 'mcp+other+fixture://env'],
  ['a command an MCP tool named is read from that server, never run', 'cmd:touch /tmp/X', tool('mcp__fixture__embedded_resource'), 'mcp+fixture+cmd:touch /tmp/X'],
  ['a URL an MCP tool named is read from that server, never fetched', 'https://evil.test/x', tool('mcp__fixture__embedded_resource'), 'mcp+fixture+https://evil.test/x'],
  // refused
  ["a server's URI a local tool named", 'fixture://env', tool('mint'), /no MCP server's tool returned it/],
  ['a local tool named like an MCP tool', 'fixture://env', tool('mcp__fixture__evil'), /no MCP server's tool returned it/],
  ['an MCP-like tool of no configured server', 'fixture://env', tool('mcp__gone__x'), /no MCP server's tool returned it/],
  ['a response no request names', 'fixture://env', tool(''), /no MCP server's tool returned it/],
  ['the repro: a command a local tool named', 'cmd:touch /tmp/M2', tool('mint'), /choose a command for jp to run/],
  ['a command in an attachment no declaration covers (an MCP server answer)', 'cmd:touch /tmp/M2', user, /choose a command for jp to run/],
  ['a declared command with a doubled space', 'cmd:touch  /tmp/M', tool('mint'), /choose a command/],
  ['a declared command with a space after the colon', 'cmd: touch /tmp/M', tool('mint'), /choose a command/],
  ['a declared command with a trailing space', 'cmd:touch /tmp/M ', tool('mint'), /choose a command/],
  ['a declared command, scheme in capitals', 'CMD:touch /tmp/M', tool('mint'), /choose a command/],
  ['a declared command in its cmd:// form', 'cmd://touch?arg=%2Ftmp%2FM', tool('mint'), /choose a command/],
  ['a declared command, percent-encoded', 'cmd:touch%20/tmp/M', tool('mint'), /choose a command/],
  ['a URL a local tool named', 'https://evil.test/x', tool('mint'), /choose a URL for jp to fetch/],
  ['http, not the declared https', 'http://example.test/a', tool('mint'), /choose a URL/],
  ['the declared URL with a trailing slash', 'https://example.test/a/', tool('mint'), /choose a URL/],
  ['the declared URL with a path in capitals', 'https://example.test/A', tool('mint'), /choose a URL/],
  ['the declared URL percent-encoded', 'https://example.test/%61', tool('mint'), /choose a URL/],
  ['piped input', 'stdin:abc', user, /piped input/],
  ['stdin a tool named', 'stdin:abc', tool('mint'), /piped input/],
  ['an external snapshot, declared', EXTERNAL, user, /outside the workspace; it cannot be refreshed/],
  ['external a tool named', `external:${'b'.repeat(64)}/y.txt`, tool('mint'), /outside the workspace; it cannot be refreshed/],
  ['an image block', 'data:image/png;base64,', tool('mcp__fixture__embedded_resource'), /inline data/],
  ['no scheme', 'notes.txt', tool('mint'), /did not attach it/],
  ['an MCP URL as a resource URI of a local tool', 'mcp+fixture+fixture://env', tool('mint'), /did not attach it/],
];

describe('refreshable: which URIs may be read again, and through what', () => {
  it.each(ROWS)('%s: %s', (_what, uri, origins, expected) => {
    const decision = decide(uri, origins);
    if (typeof expected === 'string') expect(decision).toMatchObject({ refreshable: true, input: expected });
    else expect(decision).toMatchObject({ refreshable: false, reason: expect.stringMatching(expected) });
  });

  it('a URI that is not in the conversation is refused, whatever else would allow it', () => {
    for (const uri of ['cmd:touch /tmp/M', 'file:///ws/notes.txt', 'fixture://env']) {
      expect(decide(uri, [])).toMatchObject({ refreshable: false, reason: expect.stringMatching(/not a resource in this conversation/) });
    }
  });

  it('without its declaration, an attached command is refused', () => {
    expect(decide('cmd:touch /tmp/M', user, [])).toMatchObject({ refreshable: false });
  });
});

describe('what the stream says', () => {
  const t = '2026-01-01T00:00:00.000Z';
  const events: ConversationEvent[] = [
    { type: 'turn_start', timestamp: t },
    { type: 'config_delta', timestamp: t, delta: { conversation: { attachments: ['cmd:date'] } } },
    { type: 'chat_request', timestamp: t, content: 'x', resources: [{ uri: 'cmd:date', text: 'today' }] },
    { type: 'tool_call_request', timestamp: t, id: 'c1', name: 'mcp__fixture__embedded_resource', arguments: {} },
    { type: 'tool_call_response', timestamp: t, id: 'c1', content: [{ type: 'text', text: 'x' }, { type: 'resource', resource: { uri: 'fixture://env', text: 'e' } }], isError: false },
    { type: 'tool_call_response', timestamp: t, id: 'orphan', content: [{ type: 'resource', resource: { uri: 'cmd:id', text: 'e' } }], isError: false },
    { type: 'config_delta', timestamp: t, delta: { conversation: { attachments: [] } } },
  ];

  it('a chat_request resource is the user’s; a tool result’s is its tool’s, also without a request', () => {
    expect(snapshotOrigins(events)).toEqual([
      { uri: 'cmd:date' },
      { uri: 'fixture://env', tool: 'mcp__fixture__embedded_resource' },
      { uri: 'cmd:id', tool: '' },
    ]);
  });

  it('a declaration removed later still counts', () => {
    expect(declarationsEver(['src/'], events)).toEqual(['src/', 'cmd:date']);
  });
});

describe('mcpServerOfTool', () => {
  it('names the one server whose prefix the tool has, and nothing when two could or a local tool has the name', () => {
    const servers = { mcp: { a: {}, a__b: {}, 'c.d': {}, fixture: {} }, tools: { mcp__fixture__local: {} } } as never;
    expect(mcpServerOfTool('mcp__fixture__x', servers)).toBe('fixture');
    expect(mcpServerOfTool('mcp__c_d__x', servers)).toBe('c.d');
    expect(mcpServerOfTool('mcp__a__x', servers)).toBe('a');
    expect(mcpServerOfTool('mcp__a__b__c', servers)).toBeUndefined();
    expect(mcpServerOfTool('mcp__fixture__local', servers)).toBeUndefined();
    expect(mcpServerOfTool('mcp__gone__x', servers)).toBeUndefined();
    expect(mcpServerOfTool('refresh_resource', servers)).toBeUndefined();
  });
});
