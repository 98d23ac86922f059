import type { ConversationEvent } from '@jp/core';
import { describe, expect, it } from 'vitest';
import { FakeContent } from './__fixtures__/page-fixture.ts';
import { renderEvent, type EventContext } from './render-event.ts';

const context = (content = new FakeContent()): EventContext => ({
  reader: content,
  nextStatus: () => ({ kind: 'new', sha256: 'ab'.repeat(32), size: 3 }),
  toolNames: new Map(),
});

describe('renderEvent', () => {
  it('escapes the query and renders the answer from Markdown without raw HTML', () => {
    const ctx = context();
    expect(renderEvent({ type: 'chat_request', timestamp: 't', content: 'why <b>?', resources: [] }, ctx)).toContain('<pre class="text">why &lt;b&gt;?</pre>');
    const answer = renderEvent({ type: 'chat_response', timestamp: 't', message: '# Title\n<script>document.title="pwned"</script>' } as ConversationEvent, ctx);
    expect(answer).toContain('<h4 class="md-h1">Title</h4>');
    expect(answer).not.toContain('<script');
  });

  it('shows tool calls with their arguments, and results by block type (RFD 058)', () => {
    const ctx = context();
    const call = renderEvent({ type: 'tool_call_request', timestamp: 't', id: 'c1', name: 'grep<x>', arguments: { pattern: '<a>' } }, ctx);
    expect(call).toContain('<code>grep&lt;x&gt;</code>');
    expect(call).toContain('&quot;pattern&quot;: &quot;&lt;a&gt;&quot;');
    const result = renderEvent(
      {
        type: 'tool_call_response',
        timestamp: 't',
        id: 'c1',
        isError: true,
        _meta: { 'computer.jp/status': 'running' },
        content: [
          { type: 'text', text: 'found <it>' },
          { type: 'resource', resource: { uri: 'file:///w/r.txt', text: 'abc' } },
          { type: 'question', question: { id: 'q', text: 'Continue?', schema: { type: 'boolean' } } },
        ],
      },
      ctx,
    );
    expect(result).toContain('Result of <code>grep&lt;x&gt;</code>');
    expect(result).toContain('>error<');
    expect(result).toContain('>running<');
    expect(result).toContain('found &lt;it&gt;');
    expect(result).toContain('file:///w/r.txt');
    expect(result).toContain('<strong>question</strong> Continue?');
  });

  it('shows a compaction where it was appended, its summary through the Markdown renderer, escaped', () => {
    const ctx = context();
    const html = renderEvent({ type: 'compaction', timestamp: 't', from: 0, to: 3, resources: 'stub', summary: { text: 'We chose <b>plan</b> B', model: 'm<x>' } }, ctx);
    expect(html).toContain('compaction: from here on, turns 0–3 are sent as a summary written by m&lt;x&gt;');
    expect(html).toContain('Summary sent instead');
    expect(html).not.toContain('<b>plan</b>');
    expect(renderEvent({ type: 'compaction', timestamp: 't', reset: true }, ctx)).toContain('compactions reset');
  });

  it('shows reasoning folded, structured answers as JSON, config changes and unknown events', () => {
    const ctx = context();
    expect(renderEvent({ type: 'chat_response', timestamp: 't', reasoning: 'hmm <x>' } as ConversationEvent, ctx)).toContain('<details class="reasoning">');
    expect(renderEvent({ type: 'chat_response', timestamp: 't', structured: { a: 1 } } as ConversationEvent, ctx)).toContain('&quot;a&quot;: 1');
    expect(renderEvent({ type: 'config_delta', timestamp: 't', source: 'files', delta: {}, removed: [['assistant', 'model']] }, ctx)).toContain('assistant.model removed');
    // Config changes read as key = value lines, not JSON.
    const set = renderEvent({ type: 'config_delta', timestamp: 't', delta: { assistant: { model: 'echo' }, conversation: { attachments: ['a.txt', 'src/'] } } }, ctx);
    expect(set).toContain('<pre class="config-lines">assistant.model = &quot;echo&quot;\nconversation.attachments = [&quot;a.txt&quot;,&quot;src/&quot;]</pre>');
    expect(set).not.toContain('{&quot;');
    expect(renderEvent({ type: 'future<thing>', timestamp: 't' }, ctx)).toContain('(future&lt;thing&gt; event)');
  });
});
