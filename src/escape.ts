/**
 * Server-supplied text (names, titles, descriptions) is untrusted: it reaches terminals and PR
 * comments. These helpers make it inert and bounded.
 */

/** Cuts to `max` characters, marking the cut. */
export function bound(text: string, max: number): string {
  // A string has at least as many UTF-16 units as characters: short ones need no counting.
  if (text.length <= max) return text;
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/** For a terminal: control characters (escape sequences, newlines) shown as \u escapes. */
export function terminalSafe(text: string, max = 80): string {
  const bounded = bound(text, max);
  // Most text has none of these: test first, and only rewrite what does.
  return TERMINAL_UNSAFE.test(bounded)
    ? bounded.replace(TERMINAL_UNSAFE_ALL, unicodeEscape)
    : bounded;
}

/** Like {@link terminalSafe}, but line breaks stay: each line is made safe on its own. */
export function linesSafe(text: string, max = 80): string {
  return bound(text, max)
    .split(/\r?\n/)
    .map((line) => terminalSafe(line, Infinity))
    .join('\n');
}

/**
 * Invisible and bidirectional characters: every format character (\p{Cf}: bidi marks, embeddings,
 * overrides and isolates, zero-width characters, the soft hyphen, the BOM, the Mongolian vowel
 * separator, the Unicode tag block), every default-ignorable code point (variation selectors, the
 * combining grapheme joiner, Hangul fillers), the line and paragraph separators, and fillers that
 * render as blank (U+2800 BRAILLE PATTERN BLANK): they could hide or reorder what reviewers read.
 */
const INVISIBLE_CLASS = '\\p{Cf}\\p{Default_Ignorable_Code_Point}\\u2028\\u2029\\u2800';

/** Every invisible character, for `replace` only (global: `test` would keep its place). */
export const INVISIBLE = new RegExp(`[${INVISIBLE_CLASS}]`, 'gu');

/**
 * What a JSON text written for people to read (the class list, diffed in review) shows as
 * `\uXXXX`: the invisible characters, and DEL and the C1 controls (U+007F-U+009F), which
 * JSON.stringify writes as they are and a terminal may act on (U+009B is CSI). JSON.stringify
 * escapes the C0 controls itself. For `replace` only.
 */
export const UNSEEN_IN_JSON = new RegExp(`[\\u007f-\\u009f${INVISIBLE_CLASS}]`, 'gu');

/** Control characters (\p{Cc}: U+0000-U+001F, U+007F-U+009F) and the invisible ones. */
const TERMINAL_UNSAFE = new RegExp(`[\\p{Cc}${INVISIBLE_CLASS}]`, 'u');
const TERMINAL_UNSAFE_ALL = new RegExp(TERMINAL_UNSAFE.source, 'gu');

/** A character written as `\uXXXX`: visible, and what JSON and JavaScript read it back as. */
export function unicodeEscape(c: string): string {
  // A character beyond the BMP (the tag block) is two UTF-16 units, each written as JSON does.
  let out = '';
  for (let i = 0; i < c.length; i++) out += `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

/**
 * JSON text for a file people read in review (a class list, a settings file): JSON.stringify's,
 * with its invisible and C1 characters (all inside strings) written as `\uXXXX` escapes, which
 * JSON.parse reads back the same.
 */
export function reviewedJson(value: unknown, space?: number): string {
  return JSON.stringify(value, null, space).replace(UNSEEN_IN_JSON, unicodeEscape);
}

/** Characters with an HTML meaning become entities. */
const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
};

/** U+2060 WORD JOINER: invisible, and no user name, issue number or URL runs across it. */
const JOINER = '\u2060';

/** A run of 7 to 40 hex digits, which GitHub links as a commit when one matches. */
const HEX_RUN = /\b[0-9a-f]{7,40}\b/gi;
const breakHex = (hex: string) => `${hex.slice(0, 6)}${JOINER}${hex.slice(6)}`;

/**
 * What {@link markdownSafe} rewrites besides markdown punctuation and hex runs (a superset:
 * a match only means the full chain runs): controls, invisible characters, HTML characters,
 * mentions and issue references, and what GitHub links as a URL.
 */
const MARKDOWN_HAZARD = new RegExp(`[\\p{Cc}${INVISIBLE_CLASS}&<>"@#]|GH-|:\\/\\/|www\\.`, 'iu');

/**
 * For GitHub markdown (tables, lists, headings): HTML characters become entities, markdown
 * punctuation is backslash-escaped, line breaks become spaces, and the text is bounded. GitHub
 * decodes entities and escapes before it links mentions, issue and commit references and bare URLs, so
 * those are broken with an invisible word joiner instead. The result cannot break a table cell,
 * open a tag or a comment (so cannot forge our marker), make a link, or notify anyone.
 */
export function markdownSafe(text: string, max = 100): string {
  const bounded = bound(text, max);
  // Most text (tool names, titles) holds none of what the steps after the escaping look for, and
  // escaping cannot make any of it: only the escaping and the commit-hash rule can change it.
  if (!MARKDOWN_HAZARD.test(bounded))
    return bounded.replace(/[\\`*_~[\]|!$]/g, (c) => `\\${c}`).replace(HEX_RUN, breakHex);
  return (
    bounded
      .replace(/[\p{Cc}\u2028\u2029]+/gu, ' ')
      // Shown, not dropped: "a\u202eb" must not read as "ab". The backslash is escaped below.
      .replace(INVISIBLE, unicodeEscape)
      // `$` opens math in GitHub comments.
      .replace(/[\\`*_~[\]|!$]/g, (c) => `\\${c}`)
      .replace(/[&<>"]/g, (c) => ENTITIES[c] ?? c)
      .replace(/[@#]/g, (c) => `${c}${JOINER}`)
      // GH-123 links an issue; a run of 7 to 40 hex digits links a commit when one matches.
      .replace(/\bGH-(?=\d)/gi, (g) => `${g}${JOINER}`)
      .replace(HEX_RUN, breakHex)
      .replace(/:\/\//g, `:${JOINER}//`)
      .replace(/www\./gi, (w) => `${w.slice(0, 3)}${JOINER}.`)
  );
}

/**
 * For our own sentences that quote commands in backticks, in GitHub markdown: each `code span`
 * stays one, its text as {@link codeSpanSafe} leaves it, so a command in it is copied byte for
 * byte (nothing is inserted: GitHub links no mention inside code); the text around it is
 * {@link markdownSafe}. A lone backtick is escaped like any other. In a table cell (`inTable`),
 * `|` in a span is written `\|`, which GitHub's tables read as a pipe inside the cell.
 */
export function markdownProse(text: string, max = 100, inTable = false): string {
  return bound(text, max)
    .split(/(`[^`\r\n]+`)/)
    .map((part, i) => {
      if (i % 2 === 0) return markdownSafe(part, Infinity);
      const code = codeSpanSafe(part.slice(1, -1), Infinity);
      return `\`${inTable ? code.replace(/\|/g, '\\|') : code}\``;
    })
    .join('');
}

/**
 * For inside a markdown code span: no backticks or line breaks, bounded, and invisible controls
 * shown as `\uXXXX` as {@link markdownSafe} shows them (a span needs no backslash escaping).
 */
export function codeSpanSafe(text: string, max = 100): string {
  return bound(text, max)
    .replace(/[\p{Cc}\u2028\u2029`]+/gu, ' ')
    .replace(INVISIBLE, unicodeEscape);
}

/**
 * A line's start as GitHub's runner finds a command there: after the white space it trims (.NET's,
 * which is Unicode's: U+0085 and U+00A0 too), and after any line break it splits on (`\r` alone
 * included; a break JavaScript has and the runner has not only escapes a little more).
 */
const COMMAND_AT_LINE_START = /^([^\P{White_Space}\r\n]*):(?=:)/gmu;
/** The runner's older command form, `##[name]data`, which it finds anywhere in a line. */
const OLD_COMMAND = /##\[/g;

/**
 * Text for a log a runner reads (the CLI's output in a `run:` step, the action's own log lines):
 * it carries no workflow command. A runner takes a line as one when it starts with `::` (after
 * white space), and also when `##[` and a command name appear anywhere in it: the first colon of
 * such a `::` is written `\u003a`, and the second `#` of every `##[` is written `\u0023`. None of
 * our own lines holds either; a tool name, a server's stderr line or a report file's text may.
 */
export function noWorkflowCommands(text: string): string {
  // A command needs `::` or `##[`: a text with neither (a JSON report, most others) is not
  // searched line by line (some 60 ms of CPU for a JSON report of 10,000 tools).
  const colons = text.includes('::');
  const hashes = text.includes('##[');
  if (!colons && !hashes) return text;
  const lines = colons ? text.replace(COMMAND_AT_LINE_START, '$1\\u003a') : text;
  return hashes ? lines.replace(OLD_COMMAND, '#\\u0023[') : lines;
}
