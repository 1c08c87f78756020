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

const MARKDOWN_ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '|': '&#124;',
  '`': '&#96;',
  '[': '&#91;',
  ']': '&#93;',
  '(': '&#40;',
  ')': '&#41;',
  '*': '&#42;',
  _: '&#95;',
  '~': '&#126;',
  '#': '&#35;',
  '!': '&#33;',
  '@': '&#64;',
  '\\': '&#92;',
  ':': '&#58;',
  '=': '&#61;',
  '-': '&#45;',
  '+': '&#43;',
  $: '&#36;',
  '{': '&#123;',
  '}': '&#125;',
};

/**
 * For GitHub markdown (tables, lists, headings): every character with a markdown, HTML, mention or
 * autolink meaning becomes an entity, line breaks become spaces, and the text is bounded. The
 * result cannot break a table cell, open a tag or a comment (so cannot forge our marker), make a
 * link or an autolink, or @-mention anyone.
 */
export function markdownSafe(text: string, max = 100): string {
  return (
    bound(text, max)
      .replace(/[\p{Cc}\u2028\u2029]+/gu, ' ')
      // Invisible and bidirectional controls could hide or reorder what reviewers read.
      .replace(/[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, '')
      .replace(/[&<>"'|`[\]()*_~#!@\\:=\-+${}]/g, (c) => MARKDOWN_ENTITIES[c] ?? c)
      // A bare "www." autolinks even without a scheme.
      .replace(/\./g, '&#46;')
  );
}
