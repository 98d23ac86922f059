import type { StrictServer, StrictServerOptions } from './strict-types.d.mts';

/** Starts a strict stand-in for one vendor on 127.0.0.1 (see README.md in this folder). */
export declare function createStrictServer(options: StrictServerOptions): Promise<StrictServer>;
