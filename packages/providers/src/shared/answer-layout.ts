import type { ToolCallRequestEvent } from '@jp/core';

/**
 * jp's own markers among a provider's opaque reasoning items: where the answer's text and tool
 * calls sat between its reasoning items. Stored with the items, never sent. An answer that
 * thinks, calls a tool, thinks again and calls another is sent back in that order (issue V:
 * preserved-thinking models reject a moved thinking block; OpenAI wants each reasoning item
 * followed by its own item).
 */
export type LayoutMarker = { type: 'jp_text'; length: number } | { type: 'jp_call'; id: string };

export function isLayoutMarker(item: Record<string, unknown>): item is LayoutMarker {
  return item.type === 'jp_text' || item.type === 'jp_call';
}

/** Records, in a stream mapper, the order of an answer's reasoning items, text and calls. */
export class AnswerLayoutRecorder {
  private readonly items: Record<string, unknown>[] = [];
  private reasoned = false;

  reasoning(item: Record<string, unknown>): void {
    this.items.push(item);
    this.reasoned = true;
  }

  text(length: number): void {
    if (length <= 0) return;
    const last = this.items.at(-1);
    if (last?.type === 'jp_text') last.length = (last.length as number) + length;
    else this.items.push({ type: 'jp_text', length });
  }

  call(id: string): void {
    this.items.push({ type: 'jp_call', id });
  }

  /** The opaque items the answer leaves: its reasoning items in place among the markers, or none when it did not reason. */
  finish(): Record<string, unknown>[] {
    return this.reasoned ? this.items : [];
  }
}

export type AnswerPart =
  | { kind: 'reasoning'; item: Record<string, unknown> }
  | { kind: 'text'; text: string }
  | { kind: 'call'; call: ToolCallRequestEvent };

/**
 * An answer's parts in the order they streamed: `layout` (its opaque items, markers included),
 * its text and its calls as stored. Text the markers do not account for, and calls they do not
 * name, come last (an answer stored before the markers existed: reasoning, then text, then calls).
 */
export function orderAnswer(layout: readonly Record<string, unknown>[], text: string | undefined, calls: readonly ToolCallRequestEvent[]): AnswerPart[] {
  const parts: AnswerPart[] = [];
  const pending = [...calls];
  let rest = text ?? '';
  for (const item of layout) {
    if (!isLayoutMarker(item)) parts.push({ kind: 'reasoning', item });
    else if (item.type === 'jp_text') {
      const piece = rest.slice(0, item.length);
      rest = rest.slice(item.length);
      if (piece !== '') parts.push({ kind: 'text', text: piece });
    } else {
      const at = pending.findIndex((call) => call.id === item.id);
      if (at !== -1) parts.push({ kind: 'call', call: pending.splice(at, 1)[0]! });
    }
  }
  if (rest !== '') parts.push({ kind: 'text', text: rest });
  for (const call of pending) parts.push({ kind: 'call', call });
  return parts;
}
