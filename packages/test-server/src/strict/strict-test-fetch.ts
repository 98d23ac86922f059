// Raw HTTP for the strict stand-ins' rule tables: a body in, the status and parsed JSON (or text) out.
import type { StrictServer } from './strict-types.d.mts';

export interface Answer {
  status: number;
  body: any;
  text: string;
}

export async function post(server: StrictServer, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed, text };
}

export async function get(server: StrictServer, path: string): Promise<Answer> {
  const response = await fetch(`${server.url}${path}`);
  const text = await response.text();
  return { status: response.status, body: text.startsWith('{') ? JSON.parse(text) : undefined, text };
}
