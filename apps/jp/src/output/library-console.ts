import { format } from 'node:util';
import { visibleText } from './terminal-text.ts';

/**
 * jp never writes through `console`; the libraries it bundles do, and some quote what a server sent
 * (the Anthropic SDK logs an SSE event that is not JSON, as it received it). Their messages keep
 * their stream but are shown visibly (terminal-text.ts), so nothing in the process reaches the
 * terminal without passing the rule `Output` applies. Called once, by the entry point.
 */
export function routeLibraryConsole(streams: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream } = process): void {
  const to = (stream: NodeJS.WritableStream) => (...args: unknown[]) => {
    stream.write(`${visibleText(format(...args))}\n`);
  };
  console.log = console.info = console.debug = to(streams.stdout);
  console.warn = console.error = to(streams.stderr);
}
