/**
 * Server-supplied text (names, titles, descriptions) is untrusted: it reaches terminals and PR
 * comments. These helpers make it inert and bounded.
 */

/** Cuts to `max` characters, marking the cut. */
export function bound(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/** For a terminal: control characters (escape sequences, newlines) shown as \u escapes. */
export function terminalSafe(text: string, max = 80): string {
  return bound(text, max).replace(
    /[\p{Cc}\u200b-\u200f\u2028-\u202e\u2066-\u2069]/gu,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Characters with an HTML meaning (or a mention) become entities. */
const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '@': '&#64;',
};

/**
 * For GitHub markdown (tables, lists, headings): HTML characters and `@` become entities,
 * markdown punctuation is backslash-escaped, line breaks become spaces, autolinks are broken, and
 * the text is bounded. The result cannot break a table cell, open a tag or a comment (so cannot
 * forge our marker), make a link, or @-mention anyone.
 */
export function markdownSafe(text: string, max = 100): string {
  return (
    bound(text, max)
      .replace(/[\p{Cc}\u2028\u2029]+/gu, ' ')
      // Invisible and bidirectional controls could hide or reorder what reviewers read.
      .replace(/[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, '')
      .replace(/[\\`*_~[\]|#!]/g, (c) => `\\${c}`)
      .replace(/[&<>"@]/g, (c) => ENTITIES[c] ?? c)
      // GitHub autolinks bare URLs and www. names even without link syntax.
      .replace(/:\/\//g, '&#58;//')
      .replace(/www\./gi, (w) => `${w.slice(0, 3)}&#46;`)
  );
}
