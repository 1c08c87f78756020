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

/** Header or query names that carry credentials: their values are secrets whatever they look like. */
const SECRET_NAME = /auth|token|key|secret|pass|cookie|session|sig|cred|code/i;

/**
 * Other values count as secrets only when they look like opaque tokens (16 or more word-like
 * characters): masking a value such as `v=2026` or `Accept: application/json` would garble every
 * log line that happens to contain it.
 */
const OPAQUE = /^[\w.~+=-]{16,}$/;

function isSecret(name: string, value: string): boolean {
  return SECRET_NAME.test(name) ? value.length >= MIN_SECRET : OPAQUE.test(value);
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/**
 * The parts of a URL that may hold secrets, read from its text rather than parsed, so that a
 * URL fetch would refuse (a bad port, a space) is redacted all the same: the user information
 * before `@`, and the query's name=value pairs (split at the first `=`), with where each is.
 */
const URL_PARTS = /^(\s*[a-z][a-z0-9+.-]*:\/\/)(?:([^/?#@]*)@)?([^?#]*)(?:\?([^#]*))?(.*)$/is;

interface UrlParts {
  scheme: string;
  userinfo: string | undefined;
  hostAndPath: string;
  query: { name: string; value: string | undefined }[] | undefined;
  rest: string;
}

function urlParts(url: string): UrlParts | undefined {
  const match = URL_PARTS.exec(url);
  if (!match) return undefined;
  const [, scheme = '', userinfo, hostAndPath = '', query, rest = ''] = match;
  return {
    scheme,
    userinfo,
    hostAndPath,
    query: query?.split('&').map((pair) => {
      const equals = pair.indexOf('=');
      return equals < 0
        ? { name: pair, value: undefined }
        : { name: pair.slice(0, equals), value: pair.slice(equals + 1) };
    }),
    rest,
  };
}

/**
 * A URL fit to show: its user information and every query value become `***` (the names stay,
 * to say which parameter); the rest is shown as written. Shown URLs hide every value, as a short
 * secret can hide behind any name; the log's masking ({@link secretsOf}) takes only those that
 * look like secrets, since it applies to every line of the log.
 */
export function redactUrl(url: string): string {
  const parts = urlParts(url);
  if (!parts || (parts.userinfo === undefined && !parts.query)) return url;
  const auth = parts.userinfo !== undefined ? `${REDACTED}@` : '';
  const query = parts.query
    ?.map(({ name, value }) => (value === undefined ? name : `${name}=${REDACTED}`))
    .join('&');
  return `${parts.scheme}${auth}${parts.hostAndPath}${query !== undefined ? `?${query}` : ''}${parts.rest}`;
}

/**
 * The secret parts of a URL (its password, a user name that is a token, credential-like query
 * values) and of header values, longest first, for {@link redactText} and the Actions log's
 * masking. Both the raw and the decoded forms count: a message may show either.
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
  const parts = url !== undefined ? urlParts(url) : undefined;
  if (parts?.userinfo !== undefined) {
    const colon = parts.userinfo.indexOf(':');
    const user = colon < 0 ? parts.userinfo : parts.userinfo.slice(0, colon);
    const password = colon < 0 ? undefined : parts.userinfo.slice(colon + 1);
    // A user name alone is often a token (https://TOKEN@host); beside a password, only if opaque.
    if (password === undefined || OPAQUE.test(decoded(user))) secrets.push(user, decoded(user));
    if (password !== undefined) secrets.push(password, decoded(password));
  }
  for (const { name, value } of parts?.query ?? [])
    if (value !== undefined && isSecret(decoded(name), decoded(value)))
      secrets.push(value, decoded(value));
  return mergeSecrets(secrets);
}

/**
 * Lists of secrets as one, as {@link redactText} wants it: each once, none too short to redact,
 * longest first (a secret that holds another is replaced whole).
 */
export function mergeSecrets(...lists: readonly (readonly string[])[]): string[] {
  return [...new Set(lists.flat().filter((s) => s.length >= MIN_SECRET))].sort(
    (a, b) => b.length - a.length,
  );
}

/**
 * `text` with every occurrence of each secret replaced by `***` (longest first), and the user
 * information of any URL in it (`https://user:password@`), whoever's it is.
 */
export function redactText(text: string, secrets: readonly string[]): string {
  let out = text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^/?#@\s]+@/gi, `$1${REDACTED}@`);
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}
