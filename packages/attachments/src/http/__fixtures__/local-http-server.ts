import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_LIMITS, type FetchLimits, type HandlerContext } from '../../handler.ts';

/** A real HTTP server on 127.0.0.1 and a random port, for tests. */
export interface LocalHttpServer {
  port: number;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  url(path: string): string;
  /** Headers of every request received, in order. */
  requests: { url: string; headers: http.IncomingHttpHeaders }[];
  close(): Promise<void>;
}

export async function startLocalHttpServer(handler: http.RequestListener): Promise<LocalHttpServer> {
  const requests: LocalHttpServer['requests'] = [];
  const server = http.createServer((request, response) => {
    requests.push({ url: request.url ?? '', headers: request.headers });
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    port,
    origin,
    url: (path) => `${origin}${path}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port on 127.0.0.1 that nothing listens on (it was free a moment ago). */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A handler context for network tests: no workspace is read; warnings are collected. */
export function httpContext(fetchLimits: Partial<FetchLimits> = {}, extra: Partial<HandlerContext> = {}): HandlerContext & { warnings: string[] } {
  const warnings: string[] = [];
  return {
    workspaceRoot: '/nonexistent-workspace',
    cwd: '/nonexistent-workspace',
    limits: DEFAULT_LIMITS,
    logger: { warn: (message) => warnings.push(message) },
    fetchLimits: { maxBytes: 10 * 1024 * 1024, timeoutMs: 5_000, maxRedirects: 5, ...fetchLimits },
    warnings,
    ...extra,
  };
}
