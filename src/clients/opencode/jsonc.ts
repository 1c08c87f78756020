import { parseJsonText, type JsonText } from '../../core/jsontext.js';

/*
 * JSON with comments, as opencode 1.18.33 reads opencode.json and opencode.jsonc alike (both
 * observed: // and block comments, and a comma before a closing bracket, are accepted). The text
 * is read as JSON once its comments and trailing commas are blanked out, each character a space
 * and line breaks kept, so every offset and line of the blanked text is the file's own: a
 * finding names the file's line, and an edit lands where the file has the value. Pure.
 */

/** The end of the string that starts at `i` (past its closing quote), or the text's end. */
function stringEnd(text: string, i: number): number {
  let j = i + 1;
  while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
  return Math.min(j + 1, text.length);
}

/** `text[from, to)` as spaces, its line breaks kept. */
const blank = (text: string, from: number, to: number): string =>
  text.slice(from, to).replace(/[^\r\n]/g, ' ');

/**
 * The text with comments and trailing commas as spaces (same length, same lines). A comment that
 * never closes is left as it is, so the JSON parse fails at it.
 */
export function blankJsonc(text: string): string {
  let out = '';
  // Where the last comma outside strings is in `out`, while only space and comments follow it.
  let comma = -1;
  let i = 0;
  while (i < text.length) {
    const char = text[i] as string;
    const next = text[i + 1];
    if (char === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      comma = -1;
      i = end;
    } else if (char === '/' && (next === '/' || next === '*')) {
      const close = next === '/' ? text.indexOf('\n', i) : text.indexOf('*/', i + 2);
      if (close < 0 && next === '*') {
        out += text.slice(i);
        break;
      }
      const end = close < 0 ? text.length : next === '/' ? close : close + 2;
      out += blank(text, i, end);
      i = end;
    } else {
      if ((char === '}' || char === ']') && comma >= 0)
        out = `${out.slice(0, comma)} ${out.slice(comma + 1)}`;
      if (char === ',') comma = out.length;
      else if (!/\s/.test(char)) comma = -1;
      out += char;
      i++;
    }
  }
  return out;
}

/**
 * A JSONC file's values and its blanked text with its positions, without a byte order mark; text
 * that does not parse is an AuditError naming `what`, the line and the column, with `fix`.
 */
export function parseJsonc(text: string, what: string, fix: string): JsonText {
  const bare = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return parseJsonText(blankJsonc(bare), what, fix, { lines: true });
}
