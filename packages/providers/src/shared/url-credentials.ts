/*
 * A base URL may carry credentials (RFD 013): `http://user:pass@proxy/v1` for a server behind basic
 * auth, `…/v1?key=…` for one that takes a key in the query. fetch refuses a URL with userinfo and
 * the SDKs append paths after a query, so jp takes them out of the URL and hands them to the SDK
 * as a header and default query parameters: they are still sent, and the URL jp names is clean.
 */

export interface UrlCredentials {
  /** The URL without userinfo, query or fragment. */
  baseUrl: string;
  /** `Authorization: Basic …` when the URL had userinfo. */
  headers: Record<string, string>;
  /** The URL's query parameters, to send with every request. */
  query: Record<string, string>;
}

export function splitUrlCredentials(url: string): UrlCredentials {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { baseUrl: url, headers: {}, query: {} };
  }
  const headers: Record<string, string> = {};
  const query: Record<string, string> = {};
  if (parsed.username !== '' || parsed.password !== '') {
    const pair = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
    headers.Authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
    parsed.username = '';
    parsed.password = '';
  }
  for (const [name, value] of parsed.searchParams) query[name] = value;
  if (parsed.search === '' && Object.keys(headers).length === 0) return { baseUrl: url, headers, query };
  parsed.search = '';
  parsed.hash = '';
  return { baseUrl: parsed.toString(), headers, query };
}
