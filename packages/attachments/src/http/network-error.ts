import { AttachmentError } from '@jp/core';

interface Cause {
  code: string | undefined;
  message: string;
}

/**
 * The innermost useful cause of a failed `fetch`: Node wraps socket errors as
 * `TypeError: fetch failed` with the system error as `cause`, and a failed connection to several
 * addresses as an `AggregateError` whose `errors` carry the codes.
 */
function causeOf(error: unknown): Cause {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const record = current as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    const code = typeof record.code === 'string' ? record.code : undefined;
    const message = (typeof record.message === 'string' ? record.message : String(current)).replace(/\s+/g, ' ').trim();
    if (code !== undefined) return { code, message };
    if (record.cause !== undefined) current = record.cause;
    else if (Array.isArray(record.errors) && record.errors.length > 0) current = record.errors[0];
    else return { code: undefined, message };
  }
  return { code: undefined, message: String(current) };
}

const TLS_CODES = /^(?:ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|EPROTO$)/;

/**
 * One line for a request that failed below HTTP (connection refused, unknown host, TLS, a reset
 * socket), with the system error code and what to do. `where` is the URL being fetched, as shown.
 */
export function networkError(label: string, where: string, url: URL, error: unknown): AttachmentError {
  const { code, message } = causeOf(error);
  const options = { code: 'http_network', cause: error };
  const fail = (what: string): AttachmentError => new AttachmentError(label, `GET ${where} failed: ${what}`, options);
  if (code === undefined && message === 'bad port') {
    return new AttachmentError(
      label,
      `GET ${where} refused: port ${url.port} is on fetch's list of ports kept for other protocols; serve the page on another port`,
      { ...options, code: 'http_bad_port' },
    );
  }
  switch (code) {
    case 'ECONNREFUSED':
      return fail('connection refused (ECONNREFUSED); check that the server is running and the port is right');
    case 'ENOTFOUND':
      return fail(`host ${url.hostname} not found (ENOTFOUND); check the host name and your network`);
    case 'EAI_AGAIN':
      return fail(`DNS lookup of ${url.hostname} failed (EAI_AGAIN); check your network and try again`);
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
      return fail(`the server closed the connection (${code}); try again later`);
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return fail(`${url.hostname} is unreachable (${code}); check your network`);
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
      return fail(`the server did not answer in time (${code}); try again later`);
    default:
      if (code !== undefined && TLS_CODES.test(code)) {
        return fail(`TLS error: ${message} (${code}); the server's certificate is not trusted here, or the server does not speak https`);
      }
      return fail(code === undefined ? `${message}` : `${message} (${code})`);
  }
}
