import type { HandleReply, SpawnHandle, SpawnOptions, StatefulHandle } from './handle.ts';
import { HandleInputError } from './handle-input-error.ts';

/** A handle that was still running when the turn ended, and what its abort gave. */
export interface ClosedHandle {
  tool: string;
  id: string;
  reply: HandleReply;
  /** False when the program had already ended on its own and only the model had not seen it. */
  wasRunning: boolean;
}

interface Entry {
  tool: string;
  handle: StatefulHandle;
  /** Its `stopped` reply has reached the model: further calls are about a finished handle. */
  finished: boolean;
  lifeTimer?: NodeJS.Timeout | undefined;
  /** Set when jp stopped it for reaching its longest life. */
  expired?: boolean;
}

/**
 * The handles of one `jp query` (RFD 019): ids unique within the query, at most `limit` of them,
 * all aborted when the turn ends (`closeAll`) or the query is interrupted.
 */
export class HandleRegistry {
  private readonly entries = new Map<string, Entry>();
  private closed = false;

  constructor(
    private readonly limit: number,
    signal?: AbortSignal,
  ) {
    signal?.addEventListener('abort', () => void this.closeAll(), { once: true });
  }

  get size(): number {
    return this.entries.size;
  }

  async spawn(tool: string, id: string, factory: SpawnHandle, options: SpawnOptions, maxRuntimeMs: number): Promise<HandleReply> {
    if (this.closed) throw new HandleInputError('the turn is over; no new handles');
    if (this.entries.has(id)) throw new HandleInputError(`a handle with id ${JSON.stringify(id)} already exists in this query; choose another id`);
    if (this.entries.size >= this.limit) {
      throw new HandleInputError(`this query already has ${this.limit} handles, the most it may have (assistant.max_tool_handles)`);
    }
    // Reserved before the spawn resolves, so two calls with one id in the same round cannot both win.
    const entry: Entry = { tool, handle: undefined as unknown as StatefulHandle, finished: false };
    this.entries.set(id, entry);
    try {
      entry.handle = await factory(id, options);
    } catch (error) {
      this.entries.delete(id);
      const code = (error as NodeJS.ErrnoException).code;
      throw new HandleInputError(`tool ${tool} could not be started: ${code === 'ENOENT' ? `program ${options.command} not found` : (error as Error).message}`);
    }
    if (this.closed) {
      await entry.handle.abort();
      throw new HandleInputError('the turn is over; no new handles');
    }
    entry.lifeTimer = setTimeout(() => {
      entry.expired = true;
      void entry.handle.abort();
    }, maxRuntimeMs);
    entry.lifeTimer.unref();
    return { status: entry.handle.status, content: [{ type: 'text', text: 'started' }], isError: false };
  }

  /** The handle `id` of `tool`, still open to calls. */
  get(tool: string, id: string): StatefulHandle {
    const entry = this.entries.get(id);
    if (entry === undefined || entry.tool !== tool) {
      const known = [...this.entries].filter(([, e]) => e.tool === tool && !e.finished).map(([key]) => key);
      throw new HandleInputError(`no handle ${JSON.stringify(id)} of tool ${tool} in this query; open: ${known.join(', ') || 'none'} (spawn one first)`);
    }
    if (entry.finished) throw new HandleInputError(`handle ${JSON.stringify(id)} has finished; spawn a new one with another id`);
    return entry.handle;
  }

  /** Notes that a reply went to the model: a `stopped` one finishes the handle. */
  delivered(id: string, reply: HandleReply): HandleReply {
    const entry = this.entries.get(id);
    if (entry !== undefined && reply.status === 'stopped') {
      entry.finished = true;
      clearTimeout(entry.lifeTimer);
      if (entry.expired === true) {
        return { ...reply, content: [{ type: 'text', text: 'jp stopped the program: it reached its longest life (max_runtime_secs)' }, ...reply.content] };
      }
    }
    return reply;
  }

  /** Aborts every handle whose end the model has not seen; their final replies, in spawn order. */
  async closeAll(): Promise<ClosedHandle[]> {
    this.closed = true;
    const open = [...this.entries].filter(([, entry]) => !entry.finished && entry.handle !== undefined);
    const replies = await Promise.all(
      open.map(async ([id, entry]) => {
        clearTimeout(entry.lifeTimer);
        entry.finished = true;
        const wasRunning = entry.handle.status !== 'stopped';
        return { tool: entry.tool, id, reply: await entry.handle.abort(), wasRunning };
      }),
    );
    return replies;
  }
}
