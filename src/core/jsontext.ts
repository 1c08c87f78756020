import { AuditError } from '../errors.js';

/*
 * JSON text as people edit it (class lists, Claude Code settings files): where a broken file stops
 * being JSON, told as a line and column, so the error points at the line to fix.
 */

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPES = '"\\/bfnrt';
const isSpace = (code: number): boolean =>
  code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
const isHex = (char: string | undefined): boolean =>
  char !== undefined && /^[0-9a-fA-F]$/.test(char);

/** The 1-based line of a character offset. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** The scanner's place in the text. */
interface Cursor {
  text: string;
  i: number;
}

/** What the scanner expects next. */
type Expect = 'value' | 'key' | 'after';
/** What one step found: what comes next, or where the text stops being JSON (-1: it is valid). */
type Step = Expect | { stop: number };

function skipSpace(cursor: Cursor): void {
  while (cursor.i < cursor.text.length && isSpace(cursor.text.charCodeAt(cursor.i))) cursor.i++;
}

/** Moves past the string at the cursor; the offset of its error, or -1. */
function scanString(cursor: Cursor): number {
  const { text } = cursor;
  const end = text.length;
  cursor.i++;
  while (cursor.i < end) {
    const i = cursor.i;
    const char = text[i] as string;
    if (char === '"') {
      cursor.i++;
      return -1;
    }
    if (char.charCodeAt(0) < 0x20) return i;
    if (char === '\\') {
      const escape = text[i + 1];
      if (escape === 'u') {
        for (let k = 2; k < 6; k++) if (!isHex(text[i + k])) return Math.min(i + k, end);
        cursor.i += 6;
      } else if (escape !== undefined && ESCAPES.includes(escape)) cursor.i += 2;
      else return Math.min(i + 1, end);
    } else cursor.i++;
  }
  return end;
}

/** Moves past the string, literal or number at the cursor; the offset of its error, or -1. */
function scanScalar(cursor: Cursor): number {
  const { text, i } = cursor;
  const end = text.length;
  const char = text[i];
  if (char === '"') return scanString(cursor);
  if (char === 't' || char === 'f' || char === 'n') {
    const word = char === 't' ? 'true' : char === 'f' ? 'false' : 'null';
    for (let k = 0; k < word.length; k++) if (text[i + k] !== word[k]) return Math.min(i + k, end);
    cursor.i += word.length;
    return -1;
  }
  NUMBER.lastIndex = i;
  if (!NUMBER.test(text)) return char === '-' ? Math.min(i + 1, end) : i;
  cursor.i = NUMBER.lastIndex;
  return -1;
}

/** A value: opens an array or object (`open` gets its closer), or scans a scalar. */
function stepValue(cursor: Cursor, open: string[]): Step {
  const char = cursor.text[cursor.i];
  if (char === '{' || char === '[') {
    const closer = char === '{' ? '}' : ']';
    cursor.i++;
    skipSpace(cursor);
    if (cursor.text[cursor.i] !== closer) {
      open.push(closer);
      return char === '{' ? 'key' : 'value';
    }
    cursor.i++;
    return 'after';
  }
  const error = scanScalar(cursor);
  return error >= 0 ? { stop: error } : 'after';
}

/** An object's key and its colon. */
function stepKey(cursor: Cursor): Step {
  if (cursor.text[cursor.i] !== '"') return { stop: cursor.i };
  const error = scanString(cursor);
  if (error >= 0) return { stop: error };
  skipSpace(cursor);
  if (cursor.text[cursor.i] !== ':') return { stop: cursor.i };
  cursor.i++;
  return 'value';
}

/** After a value: a comma, the closer of the innermost open value, or the end of the text. */
function stepAfter(cursor: Cursor, open: string[]): Step {
  const closer = open.at(-1);
  if (closer === undefined) return { stop: cursor.i === cursor.text.length ? -1 : cursor.i };
  const char = cursor.text[cursor.i];
  if (char === ',') {
    cursor.i++;
    return closer === '}' ? 'key' : 'value';
  }
  if (char !== closer) return { stop: cursor.i };
  cursor.i++;
  open.pop();
  return 'after';
}

/**
 * The offset where `text` stops being valid JSON (its length when it ends too early), or -1 when
 * it is valid. V8's messages carry no position on Node 20 ("Unexpected token"), so the line of a
 * syntax error comes from here. Iterative, so a deeply nested file cannot overflow the stack.
 */
export function jsonErrorOffset(text: string): number {
  const cursor: Cursor = { text, i: 0 };
  // The closers of the open arrays and objects, innermost last.
  const open: string[] = [];
  let expect: Expect = 'value';
  for (;;) {
    skipSpace(cursor);
    const step: Step =
      expect === 'after'
        ? stepAfter(cursor, open)
        : expect === 'key'
          ? stepKey(cursor)
          : stepValue(cursor, open);
    if (typeof step !== 'string') return step.stop;
    expect = step;
  }
}

/** Where and why `text` is not JSON, as a person reads it. */
export function syntaxError(text: string): { line: number; column: number; problem: string } {
  let offset = jsonErrorOffset(text);
  // JSON.parse refused what the scanner accepts: should not happen; point at the end.
  if (offset < 0) offset = text.length;
  const char = text[offset];
  // A file that ends too early: point just after its last word, not at a blank line below it.
  if (char === undefined) offset = text.trimEnd().length;
  return {
    line: lineAt(text, offset),
    column: offset - text.lastIndexOf('\n', offset - 1),
    problem: char === undefined ? 'the file ends too early' : `unexpected ${JSON.stringify(char)}`,
  };
}

/**
 * Parses a file's JSON text, without the byte order mark editors may add (JSON.parse refuses it).
 * Text that is not JSON is an AuditError: "`what` is not valid JSON at line L, column C", with `fix`.
 */
export function parseJsonText(
  text: string,
  what: string,
  fix: string,
): { json: string; data: unknown } {
  const json = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return { json, data: JSON.parse(json) as unknown };
  } catch {
    const where = syntaxError(json);
    throw new AuditError(
      `${what} is not valid JSON at line ${where.line}, column ${where.column}: ${where.problem}.`,
      fix,
    );
  }
}
