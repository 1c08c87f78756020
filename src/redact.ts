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

/** The secret parts of a URL and of header values, for {@link redactText}. */
export function secretsOf(url: string | undefined, headers: Record<string, string> = {}): string[] {
  const secrets = Object.values(headers).flatMap((value) => {
    // "Bearer abc": the credential alone too, which a server may echo without the scheme.
    const credential = /^\S+\s+(\S.*)$/.exec(value.trim())?.[1];
    return credential ? [value.trim(), credential] : [value.trim()];
  });
  if (url !== undefined) {
    try {
      const parsed = new URL(url);
      for (const part of [parsed.username, parsed.password]) secrets.push(part, decoded(part));
      for (const value of parsed.searchParams.values()) secrets.push(value);
      // Both the raw and the decoded forms can appear in a message.
      for (const part of parsed.search.slice(1).split('&')) secrets.push(part.split('=')[1] ?? '');
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
