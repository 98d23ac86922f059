import { AttachmentError } from '@jp/core';

/** A URL with any user name and password shown as `***`, so messages never repeat a secret. */
export function redactUrl(input: string): string {
  try {
    const url = new URL(input.trim());
    if (url.username === '' && url.password === '') return input.trim();
    url.username = '***';
    url.password = '';
    return url.href;
  } catch {
    return input.trim().replace(/\/\/[^/?#]*@/, '//***@');
  }
}

/**
 * Parses an http(s) URL into its canonical form, or throws an `AttachmentError` naming `input`.
 * WHATWG `URL` lowercases the scheme and host, drops the default port, resolves `.` and `..`
 * segments and gives an empty path `/`; on top of that the fragment is dropped (it never reaches
 * the server, so it does not change what is fetched). The query string is kept as written.
 * A URL carrying a user name or password is refused: the declaration and the resource URI are
 * stored in the conversation, and so would the secret be.
 */
export function parseHttpUrl(input: string): URL {
  const shown = redactUrl(input);
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new AttachmentError(shown, `${shown} is not a valid URL; write it as https://host/path`, { code: 'http_url_invalid' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AttachmentError(shown, `${shown} is not an http or https URL; only http(s) pages can be fetched`, { code: 'http_url_invalid' });
  }
  if (url.username !== '' || url.password !== '') {
    throw new AttachmentError(
      shown,
      `${shown} has a user name or password in it, which would be stored in the conversation; remove them (jp cannot attach pages behind a login)`,
      { code: 'http_url_credentials' },
    );
  }
  url.hash = '';
  return url;
}

/** The canonical string form of an http(s) URL (see `parseHttpUrl`). */
export function normalizeHttpUrl(input: string): string {
  return parseHttpUrl(input).href;
}
