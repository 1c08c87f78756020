import { isAbsolute, relative, resolve } from 'node:path';

/**
 * What the auditor shows of what the user gave it, and what it keeps secret.
 *
 * Shown: a word of a command line (the server's command and arguments, --start, --cwd, the
 * update command) only when it has a safe shape: a flag name, a plain word, a version or package
 * name, a path inside the repository (the folder the audit runs in); a `--flag=value` shows the
 * flag and judges the value, and a flag whose name says credential (`--token`) hides its value;
 * a URL shows its scheme, plain host and port. Anything else reads `***`. An allow-list: a shape
 * not foreseen here is hidden, never shown. It judges shape, not meaning: a password that is a
 * plain word shows, which is why secrets belong in env.
 *
 * Secret: every value the user gave that is not shown (each hidden word, every env value, every
 * header value, the hidden parts of a URL) is replaced by `***` wherever the auditor writes
 * (reports, comments, the summary, errors, what a server echoes) and masked in the Actions log.
 * Redaction happens where a message is made, before any escaping: a markdown-escaped secret
 * would no longer match, here or in the log's masking.
 */

/** What a redacted value reads as. */
export const REDACTED = '***';

/**
 * Values shorter than this are not masked: replacing every "1", "on" or "dev" would garble each
 * message and log line, and a value of three characters protects nothing a guess would not find.
 * They are still never shown where a command line is (that is the allow-list's part).
 */
const MIN_SECRET = 4;

/**
 * Whole values that are settings by nature, never credentials: masked, a `PORT=3000`,
 * `DEBUG=true` or `NODE_ENV=test` would replace every port, every "true" and every "test" in the
 * job's log, the report and the tools' own descriptions. Only these exact words: any other value
 * the user gave is masked.
 */
const NOT_A_SECRET =
  /^(?:true|false|yes|no|on|off|null|none|\d{1,5}|test|dev|development|prod|production|staging|local|debug|info|warn|warning|error|trace|verbose|silent|stdio|http|https|sse|json|text)$/i;

/** Whether a value is long enough, and not a plain setting, to be masked. */
function maskable(value: string): boolean {
  return value.length >= MIN_SECRET && !NOT_A_SECRET.test(value);
}

// The display allow-list ------------------------------------------------------------------------

/**
 * One part of a plain word: a lower-case word (with up to four digits after it: `v2`, `es2022`),
 * a Capitalised one, a short ALL-CAPS one, or a short number. Mixed case, digits inside letters
 * and long runs are what tokens look like, and are not plain.
 */
const PART = /^(?:[a-z]{1,20}\d{0,4}|[A-Z][a-z]{1,19}\d{0,4}|[A-Z]{1,12}\d{0,4}|\d{1,5})$/;

/** A plain word: parts joined by single `-`, `_` or `.` (`server.js`, `mcp-server_v2`, `LOG_LEVEL`). */
export function isPlainWord(word: string): boolean {
  return word.length <= 64 && word.split(/[-_.]/).every((part) => PART.test(part));
}

/** A version (`1.2.3`, `v2.0`, `^1.4`, `1.0.0-beta.1`). */
function isVersion(word: string): boolean {
  const match = /^(?:v|\^|~|>=)?\d{1,5}(?:\.\d{1,5}){1,3}(?:-(.+))?$/.exec(word);
  return match !== null && (match[1] === undefined || isPlainWord(match[1]));
}

/** A package name, scoped or not, with a version or tag (`pkg@1.2.3`, `@scope/pkg@latest`). */
function isPackage(word: string): boolean {
  const match = /^(?:@([^/@]+)\/)?([^/@]+)(?:@([^/@]+))?$/.exec(word);
  if (!match) return false;
  const [, scope, name = '', version] = match;
  return (
    (scope === undefined || isPlainWord(scope)) &&
    isPlainWord(name) &&
    (version === undefined || isVersion(version) || isPlainWord(version))
  );
}

/** A flag name: `-y`, `--port`, `--no-auth`, or `-` alone (standard input). */
function isFlag(word: string): boolean {
  if (word === '-') return true;
  const name = /^--?([A-Za-z].*)$/.exec(word)?.[1];
  return name !== undefined && isPlainWord(name);
}

/** A path segment fit to show: a plain word, a dotfile (`.github`), a scope (`@scope`). */
function isPlainSegment(segment: string): boolean {
  return isPlainWord(segment.replace(/^[.@]/, ''));
}

/**
 * A path inside the repository (the folder the audit runs in): relative (`dist/index.js`,
 * `./server.mjs`, `.github`), or absolute under that folder, every segment after it plain and
 * none `..`.
 */
function isRepoPath(word: string, root: string): boolean {
  let rest = word;
  if (isAbsolute(word)) {
    const inside = relative(root, resolve(word));
    if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return false;
    const prefix = root.endsWith('/') ? root : `${root}/`;
    if (!word.startsWith(prefix)) return false;
    rest = word.slice(prefix.length);
  }
  if (rest.includes('\\')) return false;
  const segments = rest.replace(/^\.\//, '').replace(/\/$/, '').split('/');
  return segments.every(isPlainSegment);
}

/** A word of a command line that may be shown as it is. */
export function isSafeWord(word: string, root: string = process.cwd()): boolean {
  return (
    isFlag(word) ||
    isPlainWord(word) ||
    isVersion(word) ||
    isPackage(word) ||
    isRepoPath(word, root)
  );
}

/** A flag or variable name that says its value is a credential (`--api-key`, `DB_PASSWORD`). */
const SECRET_NAME = /auth|token|key|secret|pass|cookie|session|sig|cred|code/i;

function namesSecret(name: string): boolean {
  return SECRET_NAME.test(name) && !/^--?no-/.test(name);
}

// URLs --------------------------------------------------------------------------------------------

/**
 * The parts of a URL that may hold secrets, read from its text rather than parsed, so that a
 * URL fetch would refuse (a bad port, a space) is redacted all the same: the user information
 * before `@`, and the query's name=value pairs (split at the first `=`), with where each is.
 */
const URL_PARTS = /^(\s*[a-z][a-z0-9+.-]*:\/\/)(?:([^/?#@]*)@)?([^?#]*)(?:\?([^#]*))?(.*)$/is;

interface UrlParts {
  scheme: string;
  userinfo: string | undefined;
  host: string;
  path: string;
  query: { name: string; value: string | undefined }[] | undefined;
  rest: string;
}

function urlParts(url: string): UrlParts | undefined {
  const match = URL_PARTS.exec(url);
  if (!match) return undefined;
  const [, scheme = '', userinfo, hostAndPath = '', query, rest = ''] = match;
  const slash = hostAndPath.indexOf('/');
  return {
    scheme,
    userinfo,
    host: slash < 0 ? hostAndPath : hostAndPath.slice(0, slash),
    path: slash < 0 ? '' : hostAndPath.slice(slash),
    query: query?.split('&').map((pair) => {
      const equals = pair.indexOf('=');
      return equals < 0
        ? { name: pair, value: undefined }
        : { name: pair.slice(0, equals), value: pair.slice(equals + 1) };
    }),
    rest,
  };
}

/** A host (and port) fit to show: plain labels (`mcp.example.com`, `127.0.0.1`) or an IPv6 literal. */
function isPlainHost(hostAndPort: string): boolean {
  const host = /^(.*?)(?::\d{1,5})?$/.exec(hostAndPort)?.[1] ?? '';
  return /^\[[0-9A-Fa-f:.]+\]$/.test(host) || isPlainWord(host);
}

/**
 * `parts` shown: scheme, host and port, the rest `***`; a host that is not plain labels
 * (`k3y9x.tunnel.example`: a subdomain may be the key) is `***` too.
 */
function shownUrlOf(parts: UrlParts): string {
  const hidden =
    (parts.path !== '' && parts.path !== '/') || parts.query !== undefined || parts.rest !== '';
  const auth = parts.userinfo !== undefined ? `${REDACTED}@` : '';
  const host = isPlainHost(parts.host) ? parts.host : REDACTED;
  return `${parts.scheme}${auth}${host}${hidden ? `/${REDACTED}` : parts.path}`;
}

/**
 * A URL fit to show in a message, report or comment: only its scheme, host and port; whatever
 * else it holds (user information, path, query, fragment) reads `***`, since many hosted MCP URLs
 * carry their key in the path. `https://mcp.example.com:8443/***`.
 */
export function redactUrl(url: string): string {
  const parts = urlParts(url);
  return parts ? shownUrlOf(parts) : url;
}

/**
 * A URL inside a command line, shown as {@link redactUrl} does (`postgres://***@db.internal:5432/***`)
 * when its scheme is plain; undefined when the word is no such URL.
 */
function shownArgUrl(word: string): string | undefined {
  const parts = urlParts(word);
  const scheme = parts?.scheme.slice(0, -3) ?? '';
  return parts && /^[a-z][a-z0-9+.-]{0,15}$/i.test(scheme) ? shownUrlOf(parts) : undefined;
}

// Secrets -----------------------------------------------------------------------------------------

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** Percent-escapes with lower-case hex digits (`%2f`), as some encoders write them. */
const lowerEscapes = (text: string): string =>
  text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());

/**
 * Percent-encodings a client or server may write: `encodeURIComponent`'s, the stricter
 * RFC 3986 one that escapes `!'()*` too (Python's `quote`), each with `+` for spaces (a form
 * body), each with upper- or lower-case hex (both are valid, and both are written).
 */
function percentForms(secret: string): string[] {
  const uri = encodeURIComponent(secret);
  const strict = uri.replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const spaced = [uri, strict].flatMap((form) => [form, form.replace(/%20/g, '+')]);
  return spaced.flatMap((form) => [form, lowerEscapes(form)]);
}

/**
 * JSON-escaped, as JavaScript writes it, with non-ASCII as `\uXXXX` (Python), with `/` as `\/`,
 * and with both (PHP's `json_encode` by default).
 */
function jsonForms(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const ascii = json.replace(
    /[^ -~]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return [json, ascii, json.replace(/\//g, '\\/'), ascii.replace(/\//g, '\\/')];
}

/**
 * The base64 of a secret wherever it sits in what is encoded (`user:KEY` in a Basic credential
 * puts KEY at any byte offset): for each of the three alignments, the characters that encode the
 * secret's bits alone. The first one or two characters of an unaligned encoding, and the last
 * one or two, mix in the unknown bytes around it, so they are left out: the rest is the same
 * whatever those neighbours are. Standard and URL-safe alphabets; padding never counts.
 */
function base64Forms(bytes: Buffer): string[] {
  const forms: string[] = [];
  for (const offset of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const first = Math.ceil((8 * offset) / 6);
    const end = Math.floor((8 * (offset + bytes.length)) / 6);
    const middle = encoded.slice(first, end);
    forms.push(middle, middle.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return forms;
}

/** The named entities most HTML escapers write. */
const NAMED: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/**
 * What HTML escapes of a secret a page or a templated description may carry, each a whole style
 * (a mix of styles within one value is not caught): the named entities with `'` as `&#39;`
 * (lodash, Rails), as `&#x27;` (Python's html.escape) or as `&#039;` (PHP); Go's html/template
 * (`&#34;`, `&#39;`, `&#43;`) and html.EscapeString (without `&#43;`); mustache's (`&#x2F;`,
 * `&#x60;`, `&#x3D;` too); and every character that may be escaped as `&#NN;`, or as `&#xNN;`.
 * A character no style names is as given.
 */
const HTML_TABLES: Record<string, string>[] = [
  { ...NAMED, "'": '&#39;' },
  { ...NAMED, "'": '&#x27;' },
  { ...NAMED, "'": '&#039;' },
  { ...NAMED, '"': '&#34;', "'": '&#39;', '+': '&#43;' },
  { ...NAMED, '"': '&#34;', "'": '&#39;' },
  { ...NAMED, "'": '&#39;', '/': '&#x2F;', '`': '&#x60;', '=': '&#x3D;' },
];
const HTML_STYLES: ((c: string) => string | undefined)[] = [
  ...HTML_TABLES.map((table) => (c: string) => table[c]),
  (c) => `&#${c.charCodeAt(0)};`,
  (c) => `&#x${c.charCodeAt(0).toString(16).toUpperCase()};`,
];

/** The characters an HTML escaper may replace. */
const HTML_ESCAPED = /[&<>"'+/=`]/g;

/** A secret in each of the {@link HTML_STYLES}. */
function htmlForms(secret: string): string[] {
  return HTML_STYLES.map((style) => secret.replace(HTML_ESCAPED, (c) => style(c) ?? c));
}

/**
 * A secret as a server or a log may echo it: as given and in upper or lower case;
 * percent-encoded ({@link percentForms}); JSON-escaped ({@link jsonForms}); in hex, lower and
 * upper case; in base64 at any offset, standard or URL-safe ({@link base64Forms}); HTML-escaped
 * ({@link htmlForms}); and each of its lines alone (the log masks line by line). At most 3 + 8 +
 * 4 + 2 + 6 + 8 = 31 forms, and one per line: each that differs from the others (most values
 * have a handful) is one more `::add-mask::` line in the Actions log.
 */
export function encodedForms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const hex = bytes.toString('hex');
  const forms = [
    secret,
    secret.toLowerCase(),
    secret.toUpperCase(),
    ...percentForms(secret),
    ...jsonForms(secret),
    hex,
    hex.toUpperCase(),
    ...base64Forms(bytes),
    ...htmlForms(secret),
  ];
  if (secret.includes('\n')) forms.push(...secret.split(/\r?\n/).map((line) => line.trim()));
  return forms;
}

/** `Basic dXNlcjpwYXNz`: the user and password it encodes, which a server may echo decoded. */
function basicCredentials(value: string): string[] {
  const encoded = /^Basic\s+([A-Za-z0-9+/]+=*)$/i.exec(value)?.[1];
  const text = encoded && Buffer.from(encoded, 'base64').toString('utf8');
  if (!text || !/^[ -~]+$/.test(text)) return [];
  const colon = text.indexOf(':');
  return colon < 0 ? [text] : [text, text.slice(0, colon), text.slice(colon + 1)];
}

/**
 * The secrets of a value the user gave, as a list of its forms: the value whole (and trimmed),
 * what follows `Name:` or `NAME=` in it, a credential after its scheme (`Bearer X`: X; `header`
 * says the value is a header's, where that holds whatever X looks like), and
 * each piece between separators that is not a safe shape (a key in a URL's path, a token in a
 * list). A plain-word piece alone (`notes` in `/servers/notes/KEY`) is no secret: masking it
 * would garble every message that names the tool; the value it is part of is.
 */
export function secretsOfValue(value: string, header = false): string[] {
  if (!maskable(value.trim())) return [];
  const found = [value, value.trim()];
  const after = /^[^\s:=]+\s*[:=]\s*(\S[^]*)$/.exec(value.trim())?.[1];
  for (const whole of after === undefined ? [value.trim()] : [value.trim(), after]) {
    found.push(whole);
    // In a header (or a `Name: value` argument) the words after the first are the credential
    // whatever their shape; elsewhere (`node ./server.mjs`) only when they are no safe word.
    const credential = /^\S+\s+(\S[^]*)$/.exec(whole)?.[1];
    if (credential && (header || after !== undefined || !isSafeWord(credential)))
      found.push(credential, ...basicCredentials(whole));
  }
  const parts = urlParts(value);
  if (parts?.userinfo !== undefined)
    for (const piece of [parts.userinfo, ...parts.userinfo.split(':')]) found.push(piece);
  for (const { name, value: v } of parts?.query ?? [])
    if (v !== undefined && (namesSecret(decoded(name)) || !isSafeWord(decoded(v))))
      found.push(v, decoded(v));
  for (const piece of value.split(/[\s:=,;&?#@/'"]+/))
    if (!isSafeWord(piece)) found.push(piece, decoded(piece));
  return expand(found);
}

/** Each secret in all its forms, none too short to mask, each once. */
function expand(secrets: readonly string[]): string[] {
  return mergeSecrets(secrets.filter(maskable).flatMap(encodedForms));
}

/**
 * The secret parts of a URL and of header values, for {@link redactText} and the Actions log's
 * masking: every header value, whatever its name (the user gave it to reach the server), and
 * the URL's hidden parts: the URL whole, its user information, its query values but plain
 * settings, and each piece of its path that is not a plain word.
 */
export function secretsOf(url: string | undefined, headers: Record<string, string> = {}): string[] {
  return mergeSecrets(
    ...Object.values(headers).map((value) => secretsOfValue(value, true)),
    url !== undefined ? secretsOfValue(url) : [],
  );
}

/**
 * The values of a server's environment the user gave (a config's `env:`, the env input,
 * `--env`, a variable passed through by name): every one is a secret. What the server inherits
 * as its base (`inherited`: PATH, HOME... with the auditor's own value) is not the user's.
 */
export function secretsOfEnv(
  env: Record<string, string>,
  inherited: (name: string, value: string) => boolean,
): string[] {
  return mergeSecrets(
    ...Object.entries(env).map(([name, value]) =>
      inherited(name, value) ? [] : secretsOfValue(value),
    ),
  );
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
  // A URL's user information needs `://`; most texts (a tool's name, its description) have none.
  let out = text.includes('://')
    ? text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^/?#@\s]+@/gi, `$1${REDACTED}@`)
    : text;
  if (!finderOf(secrets)(out)) return out;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

/** The finders built, one per list of secrets (a connection redacts with one list throughout). */
const finders = new WeakMap<
  readonly string[],
  { count: number; find: (text: string) => boolean }
>();

/**
 * Whether `text` may hold any of `secrets`, in one search instead of one per form: a text
 * shorter than the shortest secret holds none; otherwise one regular expression of them all.
 * Only a text it finds something in is replaced secret by secret, longest first, as before, so
 * what is hidden is the same: it decides whether to look, never what is found.
 */
function finderOf(secrets: readonly string[]): (text: string) => boolean {
  const known = finders.get(secrets);
  if (known && known.count === secrets.length) return known.find;
  const shortest = secrets.reduce((least, secret) => Math.min(least, secret.length), Infinity);
  const any =
    shortest > 0 && shortest !== Infinity
      ? new RegExp(
          secrets.map((secret) => secret.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')).join('|'),
        )
      : undefined;
  // No secrets: nothing to find. An empty one (no caller gives it) is found everywhere, as before.
  const find =
    shortest === Infinity
      ? () => false
      : any === undefined
        ? () => true
        : (text: string) => text.length >= shortest && any.test(text);
  finders.set(secrets, { count: secrets.length, find });
  return find;
}

// Command lines -----------------------------------------------------------------------------------

/** One value of a command line as shown: as it is when safe, a URL's origin, else `***`. */
function shownValue(value: string, root: string): string {
  return isSafeWord(value, root) ? value : (shownArgUrl(value) ?? REDACTED);
}

/** `--name=value` or `NAME=value`, with a name fit to show. */
function assignmentOf(word: string): { name: string; value: string } | undefined {
  const match = /^(-{0,2}[A-Za-z][^=]*)=([^]*)$/.exec(word);
  const name = match?.[1];
  if (name === undefined || !(isFlag(name) || isPlainWord(name))) return undefined;
  return { name, value: match?.[2] ?? '' };
}

/**
 * A word as shown, after the word before it: a credential's value (after `--token`, or in
 * `--api-key=…`, `API_TOKEN=…`) only when it is a path inside the repository (`--key-file
 * keys/dev.pem`), anything else by its shape.
 */
function shownWord(word: string, previous: string, root: string): string {
  // A credential's value shows only as a path with a folder in it: a lone word may be the key.
  const credentialValue = (value: string) =>
    value.includes('/') && isRepoPath(value, root) ? value : REDACTED;
  if (isFlag(previous) && namesSecret(previous) && !isFlag(word)) return credentialValue(word);
  const assignment = isFlag(word) ? undefined : assignmentOf(word);
  if (assignment) {
    const { name, value } = assignment;
    return `${name}=${namesSecret(name) ? credentialValue(value) : shownValue(value, root)}`;
  }
  return shownValue(word, root);
}

/**
 * A command line fit to show (reports, the header line, `update` commands), by the allow-list
 * above, with the secrets of what it hides: every word or part of one that reads `***` (and
 * its pieces and encoded forms), for masking and redaction. `root` is the repository's folder,
 * where a path may be shown (the folder the audit runs in).
 */
export function redactArgs(
  words: readonly string[],
  root: string = process.cwd(),
): { shown: string[]; secrets: string[] } {
  const secrets: string[][] = [];
  const shown = words.map((word, i) => {
    const text = shownWord(word, i > 0 ? (words[i - 1] as string) : '', root);
    if (text !== word) secrets.push(secretsOfValue(word));
    const equals = word.indexOf('=');
    // `--api-key=VALUE`: the value alone too, as a server may echo it without its flag.
    if (text !== word && equals > 0) secrets.push(secretsOfValue(word.slice(equals + 1)));
    return text;
  });
  return { shown, secrets: mergeSecrets(...secrets) };
}
