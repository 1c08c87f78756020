import type * as Jsonc from 'jsonc-parser';
import { AuditError } from '../errors.js';
import { unicodeEscape, UNSEEN_IN_JSON } from '../escape.js';

/*
 * JSON text as people edit it (class lists, client settings files): JSON.parse reads the values,
 * and jsonc-parser says where things are: the line and column where a broken file stops being
 * JSON (V8's messages carry no position on Node 20), and the line of each value of a settings
 * file. jsonc-parser is a chunk of its own, loaded only when positions are needed (loadJsonText):
 * a valid class list never needs it.
 */

type Parser = typeof import('./jsonc-parser.js');
let parser: Parser | undefined;

/** Loads jsonc-parser (a separate chunk of the bundle); a no-op once loaded. */
export async function loadJsonText(): Promise<void> {
  parser ??= await import('./jsonc-parser.js');
}

/** Thrown when positions are needed before loadJsonText() was awaited (see withJsonPositions). */
class NeedsParser extends Error {
  constructor() {
    super('internal: loadJsonText() was not awaited before a JSON position was needed');
  }
}

const loaded = (): Parser => {
  if (!parser) throw new NeedsParser();
  return parser;
};

/**
 * Runs a synchronous parse; when it needed JSON positions (a broken class list) before the
 * parser was loaded, loads it and runs the parse again. A valid file never loads it.
 */
export async function withJsonPositions<T>(parse: () => T): Promise<T> {
  try {
    return parse();
  } catch (error) {
    if (!(error instanceof NeedsParser)) throw error;
    await loadJsonText();
    return parse();
  }
}

/** How a file is read. */
interface Dialect {
  /** `//` and `/* *\/` comments are allowed (Gemini's settings); trailing commas never are. */
  comments?: boolean;
  /**
   * Its lines will be asked for (a settings file): the parser must be loaded even for a file that
   * turns out to need none, so that a caller that forgot loadJsonText() fails on every file.
   */
  lines?: boolean;
}

/**
 * The syntax tree of `text` and its errors, as the dialect reads it. jsonc-parser recurses, so a
 * file nested deeper than the stack is an AuditError (JSON.parse itself reads it).
 */
function treeOf(
  text: string,
  dialect: Dialect,
  what: string,
  fix: string,
): { tree: Jsonc.Node | undefined; errors: Jsonc.ParseError[] } {
  const errors: Jsonc.ParseError[] = [];
  try {
    const tree = loaded().parseTree(text, errors, {
      disallowComments: !dialect.comments,
      allowTrailingComma: false,
      allowEmptyContent: false,
    });
    return { tree, errors };
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new AuditError(`${what} nests its values too deeply to be read.`, fix);
  }
}

/** The 1-based line of each offset, by a binary search of the line starts (built once). */
function lineLookup(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((starts[mid] as number) <= offset) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  };
}

/**
 * The offset where `text` stops being valid JSON (its length when it ends too early), or -1 when
 * it is valid, as strict JSON: no comments, no trailing comma.
 */
export function jsonErrorOffset(text: string, dialect: Dialect = {}): number {
  const error = treeOf(text, dialect, 'The text', '').errors[0];
  return error ? faultAt(text, error) : -1;
}

/** In a string: valid escapes, skipped whole; else (group 1) a control character or a bad escape. */
// A control character is a UTF-16 unit below the space: [^ -\uffff].
const STRING_PARTS = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})|([^ -\uffff]|\\.?)/g;

/**
 * Where an error is, as a person looks for it: jsonc-parser tells a bad string or number at its
 * start, so a string points at the character JSON refuses in it and a cut number (`1.`) at its end.
 */
function faultAt(text: string, error: Jsonc.ParseError): number {
  const { offset, length } = error;
  if (loaded().printParseErrorCode(error.error) === 'UnexpectedEndOfNumber') return offset + length;
  if (text[offset] !== '"') return offset;
  for (const part of text.slice(offset + 1, offset + length).matchAll(STRING_PARTS))
    // A bad escape is pointed at after its `\`.
    if (part[1] !== undefined) return offset + part.index + part[1].length;
  return offset + length;
}

/** Where and why `text` is not JSON, as a person reads it. */
function syntaxError(
  text: string,
  dialect: Dialect,
  what: string,
  fix: string,
): { line: number; column: number; problem: string } {
  const error = treeOf(text, dialect, what, fix).errors[0];
  let offset = error ? faultAt(text, error) : -1;
  // JSON.parse refused what jsonc-parser accepts: should not happen; point at the end.
  if (offset < 0) offset = text.length;
  const char = text[offset];
  // A file that ends too early: point just after its last word, not at a blank line below it.
  if (char === undefined) offset = text.trimEnd().length;
  return {
    line: lineLookup(text)(offset),
    column: offset - text.lastIndexOf('\n', offset - 1),
    problem: char === undefined ? 'the file ends too early' : `unexpected ${JSON.stringify(char)}`,
  };
}

/** A JSON file as read: its values, and where each value is written. */
export interface JsonText {
  /** The text without its byte order mark: what the offsets of `tree` count in. */
  json: string;
  data: unknown;
  /** The line the value at a path starts on (the first of duplicate keys); 1 when there is none. */
  lineOf: (...path: (string | number)[]) => number;
  /** The node of the value at a path (the first of duplicate keys). */
  nodeAt: (...path: (string | number)[]) => Jsonc.Node | undefined;
  /** The 1-based line of an offset of `json`. */
  lineAt: (offset: number) => number;
  /** The syntax tree (jsonc-parser's), for edits that keep every other byte. */
  tree: () => Jsonc.Node;
}

/**
 * Parses a file's JSON text, without the byte order mark editors may add (JSON.parse refuses it).
 * Text that is not JSON is an AuditError: "`what` is not valid JSON at line L, column C", with `fix`.
 * The values come from JSON.parse (exactly what a client's JSON.parse reads, `__proto__` keys
 * included); positions from jsonc-parser, which must be loaded for lineOf, tree and errors.
 */
export function parseJsonText(
  text: string,
  what: string,
  fix: string,
  dialect: Dialect = {},
): JsonText {
  if (dialect.lines) loaded();
  const json = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let data: unknown;
  try {
    data = JSON.parse(dialect.comments ? loaded().stripComments(json, ' ') : json) as unknown;
  } catch (error) {
    if (error instanceof NeedsParser) throw error;
    const where = syntaxError(json, dialect, what, fix);
    throw new AuditError(
      `${what} is not valid JSON at line ${where.line}, column ${where.column}: ${where.problem}.`,
      fix,
    );
  }
  let built: { tree: Jsonc.Node; line: (offset: number) => number } | undefined;
  const tree = () => {
    built ??= {
      tree: treeOf(json, dialect, what, fix).tree as Jsonc.Node,
      line: lineLookup(json),
    };
    return built;
  };
  return {
    json,
    data,
    lineOf: (...path) => {
      const node = loaded().findNodeAtLocation(tree().tree, path);
      return node ? tree().line(node.offset) : 1;
    },
    nodeAt: (...path) => loaded().findNodeAtLocation(tree().tree, path),
    lineAt: (offset) => tree().line(offset),
    tree: () => tree().tree,
  };
}

/** jsonc-parser, once loaded (for edits of a parsed text): see loadJsonText. */
export const jsonc = (): Parser => loaded();

/** The indent unit of a file: a tab, or the smallest run of leading spaces; two spaces if none. */
export function indentUnit(text: string): string {
  let unit: string | undefined;
  for (const m of text.matchAll(/\n([ \t]+)\S/g)) {
    const lead = m[1] as string;
    if (lead.startsWith('\t')) return '\t';
    if (unit === undefined || lead.length < unit.length) unit = lead;
  }
  return unit ?? '  ';
}

/** The leading whitespace of the line `offset` is on. */
export function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))?.[0] ?? '';
}

/** A value to set at a path of a JSON text (undefined takes the member out). */
export interface JsonEdit {
  path: (string | number)[];
  value: unknown;
}

/**
 * `text` with each edit applied in turn by jsonc-parser (loaded: see loadJsonText), laid out as
 * the file is (its indent, its line ends). What an edit puts in is laid out alone, so a neighbour
 * written on one line keeps its bytes; a removal lets jsonc-parser lay out the lines it joins. Its
 * invisible and C1 characters are written as `\uXXXX` escapes (a tool name a server chose, say:
 * the file is committed and read in review).
 */
export function applyJsonEdits(text: string, edits: JsonEdit[]): string {
  const unit = indentUnit(text);
  const formattingOptions = {
    insertSpaces: unit !== '\t',
    tabSize: unit === '\t' ? 1 : unit.length,
    eol: text.includes('\r\n') ? '\r\n' : '\n',
  };
  let out = text;
  for (const { path, value } of edits) {
    if (value === undefined) {
      out = jsonc().applyEdits(out, jsonc().modify(out, path, value, { formattingOptions }));
      continue;
    }
    for (const raw of jsonc()
      .modify(out, path, value, {})
      .sort((a, b) => b.offset - a.offset)) {
      // What goes in is JSON text: its invisible and C1 characters (all inside strings) as escapes.
      const content = raw.content.replace(UNSEEN_IN_JSON, unicodeEscape);
      const next = out.slice(0, raw.offset) + content + out.slice(raw.offset + raw.length);
      const [from, to] = [raw.offset, raw.offset + content.length];
      const layout = jsonc()
        .format(next, { offset: from, length: to - from }, formattingOptions)
        .filter((f) => f.offset >= from && f.offset + f.length <= to);
      out = jsonc().applyEdits(next, layout);
    }
  }
  return out;
}
