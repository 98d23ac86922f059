import type { WireServer, WireServerOptions } from './wire-types.d.mts';

/** Starts a scripted HTTP server on 127.0.0.1. */
export declare function createWireServer(options?: WireServerOptions): Promise<WireServer>;
