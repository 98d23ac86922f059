/*
 * Secrets a URL can carry (RFD 013): a password (or a lone token) in its userinfo, and the value of
 * a credential-named query parameter (`?key=` as Gemini's REST API takes it, `?token=`,
 * `?access_token=`, `?sig=`…). jp redacts them in any text it writes or prints, and treats a
 * config value that holds one as a secret.
 */

/** Query parameter names whose value is a credential, compared in lower case with `-` as `_`. */
const SECRET_PARAMS = new Set([
  'key',
  'api_key',
  'apikey',
  'token',
  'access_token',
  'auth',
  'auth_token',
  'secret',
  'client_secret',
  'password',
  'passwd',
  'sig',
  'signature',
  'x_goog_api_key',
  'x_amz_signature',
  'x_amz_security_token',
]);

export const REDACTED = '***';

// scheme://userinfo@ — userinfo is everything up to the last `@` before the authority ends.
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@"'<>]*)@/gi;
// ?name=value or &name=value, the value up to the next separator.
const QUERY_PARAM = /([?&;])([^\s=&#;"'<>]+)=([^\s&#;"'<>]*)/g;

function isSecretParam(name: string): boolean {
  let decoded = name;
  try {
    decoded = decodeURIComponent(name);
  } catch {
    // A malformed escape: compare the raw name.
  }
  return SECRET_PARAMS.has(decoded.toLowerCase().replaceAll('-', '_'));
}

/** The text with every URL's userinfo password (or lone user token) and credential query values replaced by `***`. */
export function redactUrlSecrets(text: string): string {
  if (!text.includes('://') && !text.includes('=')) return text;
  const withoutUserinfo = text.replace(USERINFO, (_match, scheme: string, userinfo: string) => {
    if (userinfo === '') return `${scheme}@`;
    const colon = userinfo.indexOf(':');
    // `user:password@` keeps the user; a lone `token@` (GitHub's form) is the secret itself.
    return colon === -1 ? `${scheme}${REDACTED}@` : `${scheme}${userinfo.slice(0, colon)}:${REDACTED}@`;
  });
  if (!withoutUserinfo.includes('://')) return withoutUserinfo;
  return withoutUserinfo.replace(QUERY_PARAM, (match, separator: string, name: string, value: string) => {
    if (value === '' || !isSecretParam(name)) return match;
    // Punctuation of the sentence around the URL (`…?key=X: refused`) is not the value's: no
    // credential format ends with `:`, `,`, `)` or `]`.
    const trail = /[:,)\]]+$/.exec(value)?.[0] ?? '';
    return `${separator}${name}=${REDACTED}${trail}`;
  });
}

/** Whether the text holds a URL secret that {@link redactUrlSecrets} would replace. */
export function hasUrlSecrets(text: string): boolean {
  return redactUrlSecrets(text) !== text;
}
