/**
 * Secrets the auditor is given for an HTTP server (credentials or query values in its URL,
 * header values) must not reach what it prints, the JSON report or a PR comment. Redaction
 * happens where a message is made, before any escaping: a markdown-escaped secret would no
 * longer match, here or in the Actions log's masking.
 */

/** What a redacted value reads as. */
export const REDACTED = '***';

/** Values shorter than this are left alone: redacting "1" would garble every message. */
const MIN_SECRET = 4;

/**
 * A URL fit to show: a user name and password become `***`, and so does every query value
 * (the names stay, to say which parameter). Text that is not a URL loses anything that looks
 * like `user:password@` after a scheme.
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i, `$1${REDACTED}@`);
  }
  if (!parsed.username && !parsed.password && !parsed.search) return url;
  const auth = parsed.username || parsed.password ? `${REDACTED}@` : '';
  const query = parsed.search
    ? `?${[...parsed.searchParams.keys()].map((key) => `${encodeURIComponent(key)}=${REDACTED}`).join('&')}`
    : '';
  return `${parsed.protocol}//${auth}${parsed.host}${parsed.pathname}${query}${parsed.hash}`;
}

/** Header or query names that carry credentials: their values are secrets whatever they look like. */
const SECRET_NAME = /auth|token|key|secret|pass|cookie|session|sig|cred|code/i;

/**
 * Other values count as secrets only when they look like opaque tokens (16 or more word-like
 * characters): masking a value such as `v=2026` or `Accept: application/json` would garble every log line that happens to contain it.
 */
const OPAQUE = /^[\w.~+=-]{16,}$/;

function isSecret(name: string, value: string): boolean {
  return SECRET_NAME.test(name) ? value.length >= MIN_SECRET : OPAQUE.test(value);
}

/**
 * The secret parts of a URL (user name, password, credential-like query values) and of header
 * values, for {@link redactText} and the Actions log's masking.
 */
export function secretsOf(url: string | undefined, headers: Record<string, string> = {}): string[] {
  const secrets: string[] = [];
  for (const [name, raw] of Object.entries(headers)) {
    const value = raw.trim();
    if (!isSecret(name, value)) continue;
    secrets.push(value);
    // "Bearer abc": the credential alone too, which a server may echo without the scheme.
    const credential = /^\S+\s+(\S.*)$/.exec(value)?.[1];
    if (credential) secrets.push(credential);
  }
  if (url !== undefined) {
    try {
      const parsed = new URL(url);
      for (const part of [parsed.username, parsed.password]) secrets.push(part, decoded(part));
      // Both the raw and the decoded forms can appear in a message.
      for (const pair of parsed.search.slice(1).split('&')) {
        const [name = '', value = ''] = pair.split('=');
        if (isSecret(decoded(name), decoded(value))) secrets.push(value, decoded(value));
      }
    } catch {
      // Not a URL: nothing to take from it.
    }
  }
  return [...new Set(secrets.filter((s) => s.length >= MIN_SECRET))].sort(
    (a, b) => b.length - a.length,
  );
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** `text` with every occurrence of each secret replaced by `***` (longest first). */
export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}
