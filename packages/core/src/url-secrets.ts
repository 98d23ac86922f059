/*
 * Secrets that travel inside URLs: a password in the userinfo (`http://user:pw@host`) and the query
 * parameters vendors read keys from (Gemini's REST API takes `?key=`). A URL holding one is a
 * secret value as a whole (RFD 013): used for the request, never written under `.jp/`, and shown
 * redacted in messages.
 */

/** Query parameters whose value is a credential, compared without case, `-` and `_`. */
const SECRET_PARAMS = new Set(['key', 'apikey', 'token', 'accesstoken', 'authtoken', 'secret', 'clientsecret', 'password', 'passwd', 'pwd', 'sig', 'signature', 'auth', 'authorization']);
const REDACTED = 'REDACTED';

const isSecretParam = (name: string) => SECRET_PARAMS.has(name.toLowerCase().replace(/[-_]/g, ''));

/** The URLs written in `text` (http, https, ws, wss). */
const URL_IN_TEXT = /\b(?:https?|wss?):\/\/[^\s"'<>`]+/gi;

function parse(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** Whether a URL carries a password or a credential query parameter. */
export function urlHasSecret(text: string): boolean {
  const url = parse(text);
  if (url === undefined) return false;
  return url.password !== '' || [...url.searchParams.keys()].some(isSecretParam);
}

/** Whether a string value holds a URL with a secret anywhere in it. */
export function textHasUrlSecret(text: string): boolean {
  return [...text.matchAll(URL_IN_TEXT)].some((match) => urlHasSecret(match[0]));
}

/** `url` with its password and credential parameters replaced by `REDACTED`; anything else as given. */
export function redactUrl(text: string): string {
  const url = parse(text);
  if (url === undefined || !urlHasSecret(text)) return text;
  if (url.password !== '') url.password = REDACTED;
  for (const name of [...url.searchParams.keys()]) if (isSecretParam(name)) url.searchParams.set(name, REDACTED);
  // Keep the form it was given in where the parser would add a slash to a bare origin.
  const out = url.toString();
  return !text.endsWith('/') && out.endsWith('/') && url.pathname === '/' && url.search === '' ? out.slice(0, -1) : out;
}

/** `text` with every URL in it redacted (error messages). */
export function redactUrlsIn(text: string): string {
  return text.replace(URL_IN_TEXT, (match) => redactUrl(match));
}
