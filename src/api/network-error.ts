/**
 * What a failed request (no HTTP answer at all) means, in words for the one-line error, and
 * whether retrying can help. "Permanent" failures say the URL is wrong (nothing listens, the
 * host does not resolve, TLS against a plain-HTTP port, a redirect): retrying them before the
 * API was ever reached only delays the same error by a minute.
 */
interface NetworkFailure {
  message: string;
  permanent: boolean;
  /**
   * The server answered, and the answer itself is what a retry would get again (over the size
   * cap, a redirect, a web page where JSON is expected): the read ends at once, also after the
   * API was reached (issue 32: such answers were retried five times, 82 s for the cap).
   */
  repeats?: boolean;
}

const PERMANENT_CODES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused (nothing listens there)',
  ENOTFOUND: 'host not found (DNS lookup failed)',
  EAI_AGAIN: 'DNS lookup failed (EAI_AGAIN)',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPROTO: 'TLS handshake failed (EPROTO): is the URL http or https?',
  ERR_SSL_WRONG_VERSION_NUMBER: 'TLS handshake failed: is the URL http or https?',
  CERT_HAS_EXPIRED: 'the TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the TLS certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'the TLS certificate chain is self-signed',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the TLS certificate cannot be verified',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'the TLS certificate cannot be verified',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the TLS certificate is for another host name',
};

const TRANSIENT_CODES: Readonly<Record<string, string>> = {
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection closed',
};

/** Messages of code-less causes (transport.ts's redirect refusal among them) that will not change on a retry. */
const PERMANENT_MESSAGES: ReadonlyArray<[RegExp, string, boolean?]> = [
  [/^bad port$/, 'the port is not allowed for HTTP'],
  [/redirect/i, 'answered with a redirect, which this tool does not follow', true],
];

export function describeNetworkError(error: unknown): NetworkFailure {
  if (!(error instanceof Error)) return { message: 'network error', permanent: false };
  if (error.name === 'TimeoutError' || error.name === 'AbortError') return { message: 'the request timed out', permanent: false };
  // Ours (transport.ts): a JSON answer cut before its end may come whole on a retry; an answer over
  // the size bound, one that does not decompress, or no JSON at all, comes the same.
  if (error.name === 'CutAnswerError') return { message: error.message, permanent: false };
  if (error.name === 'AnswerTooLargeError' || error.name === 'NotJsonAnswerError' || error.name === 'UndecodableAnswerError') return { message: error.message, permanent: true, repeats: true };
  const cause = error.cause as { code?: unknown; message?: unknown; errors?: unknown } | undefined;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  if (code !== undefined) {
    const permanent = PERMANENT_CODES[code];
    if (permanent) return { message: permanent, permanent: true };
    return { message: TRANSIENT_CODES[code] ?? `network error ${code}`, permanent: false };
  }
  const causeMessage = typeof cause?.message === 'string' ? cause.message : error.message;
  for (const [pattern, message, repeats] of PERMANENT_MESSAGES) if (pattern.test(causeMessage)) return { message, permanent: true, ...(repeats && { repeats }) };
  return { message: `network error: ${oneLine(causeMessage)}`, permanent: false };
}

export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
