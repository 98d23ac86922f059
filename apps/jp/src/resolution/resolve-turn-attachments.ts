import type { ConversationEvent, Resource } from '@jp/core';
import type { AttachmentRegistry, HandlerContext } from '@jp/attachments';

/** Every resource in a conversation's stream (attachments and tool results), in order. */
function* resourcesInStream(events: readonly ConversationEvent[]): Generator<Resource> {
  for (const event of events) {
    if (event.type === 'chat_request') {
      yield* (event as { resources: Resource[] }).resources;
    } else if (event.type === 'tool_call_response') {
      for (const block of (event as { content: Array<{ type: string; resource?: Resource }> }).content) {
        if (block.type === 'resource' && block.resource) yield block.resource;
      }
    }
  }
}

/** Every resource URI already in a conversation's stream (attachments and tool results). */
export function urisInStream(events: readonly ConversationEvent[]): Set<string> {
  const uris = new Set<string>();
  for (const resource of resourcesInStream(events)) uris.add(resource.uri);
  return uris;
}

/** Whether any event of the stream carries a resource (without collecting their URIs). */
export function streamHasResources(events: readonly ConversationEvent[]): boolean {
  return !resourcesInStream(events).next().done;
}

export interface TurnAttachmentPlan {
  /** Declarations resolved into this turn, in order: this invocation's `--attach` first. */
  toResolve: string[];
  /** `--attach` declarations not declared before: recorded in a config delta. */
  newDeclarations: string[];
  /**
   * Declarations that are missing from the stream but cannot be read again: `external:` files,
   * whose paths jp never stores (a fork with --no-turns of a conversation that attached one).
   */
  snapshotOnly: string[];
}

/** Declarations that name a snapshot, not a source: nothing can re-read them. */
export function isSnapshotOnly(declaration: string): boolean {
  return declaration.startsWith('external:');
}

/**
 * The resolution rules (ARCHITECTURE §4), decided from strings alone:
 * 1. every `--attach` of this invocation is resolved fresh, even if its URI is already in the stream;
 * 2. every declared attachment with no resource in the stream yet is resolved too;
 * 3. nothing else: history is never re-read.
 */
export function planTurnAttachments(options: {
  declared: readonly string[];
  attached: readonly string[];
  streamUris: ReadonlySet<string>;
  covers: (declaration: string, uri: string) => boolean;
}): TurnAttachmentPlan {
  const toResolve: string[] = [];
  for (const declaration of options.attached) if (!toResolve.includes(declaration)) toResolve.push(declaration);
  const newDeclarations = toResolve.filter((declaration) => !options.declared.includes(declaration));
  const snapshotOnly: string[] = [];
  for (const declaration of options.declared) {
    if (toResolve.includes(declaration)) continue;
    const present = [...options.streamUris].some((uri) => options.covers(declaration, uri));
    if (present) continue;
    if (isSnapshotOnly(declaration)) snapshotOnly.push(declaration);
    else toResolve.push(declaration);
  }
  return { toResolve, newDeclarations, snapshotOnly };
}

/** Resolves a plan. One failure fails the whole turn (nothing is appended; exit 4). */
export async function resolvePlan(registry: AttachmentRegistry, plan: TurnAttachmentPlan, ctx: HandlerContext): Promise<Resource[]> {
  if (plan.toResolve.length === 0) return [];
  // Two declarations can cover one file (`src/` and `src/main.rs`): the registry keeps its first snapshot.
  return registry.resolve(plan.toResolve, ctx);
}
