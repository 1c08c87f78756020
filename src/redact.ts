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
 * A URL fit to show in a message, report or comment: only its scheme, host and port; whatever
 * else it holds (user information, path, query, fragment) reads `***`, since many hosted MCP URLs
 * carry their key in the path. `https://mcp.example.com:8443/***`.
 */
export function redactUrl(url: string): string {
  const parts = urlParts(url);
  if (!parts) return url;
  const slash = parts.hostAndPath.indexOf('/');
  const host = slash < 0 ? parts.hostAndPath : parts.hostAndPath.slice(0, slash);
  const path = slash < 0 ? '' : parts.hostAndPath.slice(slash);
  const hidden = (path !== '' && path !== '/') || parts.query !== undefined || parts.rest !== '';
  const auth = parts.userinfo !== undefined ? `${REDACTED}@` : '';
  return `${parts.scheme}${auth}${host}${hidden ? `/${REDACTED}` : path}`;
}

/**
 * A URL with its credentials and query values as `***` and the rest as written: for a URL in a
 * stdio server's arguments (`postgresql://user:pass@host/db`), where the path says which database.
 */
export function redactUrlCredentials(url: string): string {
  const parts = urlParts(url);
  if (!parts || (parts.userinfo === undefined && !parts.query)) return url;
  const auth = parts.userinfo !== undefined ? `${REDACTED}@` : '';
  const query = parts.query
    ?.map(({ name, value }) => (value === undefined ? name : `${name}=${REDACTED}`))
    .join('&');
  return `${parts.scheme}${auth}${parts.hostAndPath}${query !== undefined ? `?${query}` : ''}${parts.rest}`;
}

/**
 * A path segment that may be a key: 8 or more characters with a digit, an upper-case letter or an
 * underscore in them, or 24 or more of any kind. Plain words (`/servers/notes/mcp`) are not
 * masked: the log's masking applies to every line.
 */
function keyLike(segment: string): boolean {
  return segment.length >= 24 || (segment.length >= 8 && /[\d_A-Z]/.test(segment));
}

/**
 * The secret parts of a URL (its password, a user name that is a token, credential-like query
 * values) and of header values, longest first, for {@link redactText} and the Actions log's
 * masking. Both the raw and the decoded forms count: a message may show either.
 */
export function secretsOf(url: string | undefined, headers: Record<string, string> = {}): string[] {
  const secrets: string[] = [];
  // Every header value is a secret, whatever its name: the user gave it to reach the server.
  for (const raw of Object.values(headers)) {
    const value = raw.trim();
    if (value.length < MIN_SECRET) continue;
    secrets.push(value);
    // "Bearer abc": the credential alone too, which a server may echo without the scheme.
    const credential = /^\S+\s+(\S.*)$/.exec(value)?.[1];
    if (credential) secrets.push(credential);
  }
  const parts = url !== undefined ? urlParts(url) : undefined;
  // The URL itself, as given and trimmed, and the segments of its path that may be a key.
  if (url !== undefined) secrets.push(url, url.trim());
  const path = parts?.hostAndPath.slice(Math.max(0, parts.hostAndPath.indexOf('/'))) ?? '';
  for (const segment of parts?.hostAndPath.includes('/') ? path.split('/') : [])
    if (keyLike(segment)) secrets.push(segment, decoded(segment));
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

/**
 * An argument that looks like a token: 20 or more characters of letters, digits and `_~+=-`, with
 * both letters and digits. No dot or slash: file names and paths are never taken for one.
 */
const TOKEN_LIKE = /^(?=[^\d]*\d)(?=[^A-Za-z]*[A-Za-z])[\w~+=-]{20,}$/;

/** A flag whose name says its value is a credential (`--api-key`, `-token`). */
const SECRET_FLAG = /^--?[A-Za-z][\w-]*$/;

/** `NAME=value` or `--name=value`. */
const ASSIGNMENT = /^(-{0,2}[A-Za-z_][\w.-]*)=(.*)$/s;

const URL_IN_ARG = /[a-z][a-z0-9+.-]*:\/\/[^\s'"]+/gi;

/**
 * A stdio server's command line fit to show (reports, the header line, `update` commands), with
 * the secrets found in it for masking and redaction: the credentials and query values of a URL
 * in any argument (`postgresql://user:pass@host/db`), the value of an argument whose name says it
 * is a credential (`--api-key=…`, `--token …`, `API_TOKEN=…`), and arguments that look like
 * tokens. Each becomes `***`.
 */
export function redactArgs(args: readonly string[]): { shown: string[]; secrets: string[] } {
  const secrets: string[] = [];
  const shown = args.map((arg, i) => {
    const previous = i > 0 ? (args[i - 1] as string) : '';
    // `--token VALUE`: a value, not a further flag or a file (`--no-auth server.js`).
    if (
      SECRET_FLAG.test(previous) &&
      SECRET_NAME.test(previous) &&
      !arg.startsWith('-') &&
      !/[\\/]|\.[A-Za-z]{1,4}$/.test(arg)
    ) {
      secrets.push(arg);
      return REDACTED;
    }
    const assignment = ASSIGNMENT.exec(arg);
    if (
      assignment &&
      SECRET_NAME.test(assignment[1] as string) &&
      !assignment[2]?.includes('://')
    ) {
      secrets.push(assignment[2] as string);
      return `${assignment[1]}=${REDACTED}`;
    }
    if (TOKEN_LIKE.test(arg)) {
      secrets.push(arg);
      return REDACTED;
    }
    return arg.replace(URL_IN_ARG, (url) => {
      const shownUrl = redactUrlCredentials(url);
      if (shownUrl !== url) secrets.push(...secretsOfUrlCredentials(url));
      return shownUrl;
    });
  });
  return { shown, secrets: mergeSecrets(secrets) };
}

/** A URL's password (or a lone user name) and every query value, raw and decoded. */
function secretsOfUrlCredentials(url: string): string[] {
  const parts = urlParts(url);
  if (!parts) return [];
  const secrets: string[] = [];
  if (parts.userinfo !== undefined) {
    const colon = parts.userinfo.indexOf(':');
    const secret = colon < 0 ? parts.userinfo : parts.userinfo.slice(colon + 1);
    secrets.push(secret, decoded(secret));
  }
  for (const { value } of parts.query ?? [])
    if (value !== undefined) secrets.push(value, decoded(value));
  return secrets;
}
