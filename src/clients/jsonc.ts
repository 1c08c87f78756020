import { parseJsonText, type JsonText } from '../core/jsontext.js';
import { AuditError } from '../errors.js';
import { isObject } from '../core/tools.js';
import type { ClientFile } from './client.js';

/*
 * JSON with comments, as opencode 1.18.33 reads opencode.json and opencode.jsonc (both observed:
 * // and block comments, and a comma before a closing bracket, are accepted) and as VS Code and
 * Cursor document their .vscode/ and .cursor/ files (JSONC). The text is read as JSON once its
 * comments and trailing commas are blanked out, each character a space and line breaks kept, so
 * every offset and line of the blanked text is the file's own: a finding names the file's line,
 * and an edit lands where the file has the value. Pure.
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

/** A JSONC file read as an object, with where each value is. */
export interface JsoncObject {
  data: Record<string, unknown>;
  lineOf: JsonText['lineOf'];
  /** An AuditError saying that the value at `path` is not `what`, with its line. */
  refuse: (path: (string | number)[], what: string) => AuditError;
}

/**
 * A client's JSONC config file whose top level must be an object (`client` names it in messages:
 * "The VS Code file .vscode/mcp.json ..."); text that does not parse, or a top level that is not
 * an object, is an AuditError with `fix`.
 */
export function readJsoncObject(file: ClientFile, client: string, fix: string): JsoncObject {
  const what = `The ${client} file ${file.path}`;
  const { data, lineOf } = parseJsonc(file.text, what, fix);
  const refuse = (path: (string | number)[], want: string) =>
    new AuditError(
      `${what} has ${path.join('.') || 'a top level'} that is not ${want} (line ${lineOf(...path)}).`,
      fix,
    );
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw refuse([], 'an object');
  return { data: data as Record<string, unknown>, lineOf, refuse };
}

/** A server a client's MCP config file defines: its key, and where. */
export interface ConfiguredServer {
  key: string;
  file: string;
  line: number;
}

/**
 * The servers of a client's MCP config file, the keys of its `member` (`servers`, `mcpServers`),
 * added to `into`; a member that is not an object is an AuditError naming its line.
 */
export function readServers(
  file: ClientFile,
  client: string,
  member: string,
  fix: string,
  into: Map<string, ConfiguredServer>,
): void {
  const { data, lineOf, refuse } = readJsoncObject(file, client, fix);
  const servers = data[member];
  if (servers === undefined) return;
  if (!isObject(servers)) throw refuse([member], 'an object of servers');
  for (const key of Object.keys(servers))
    into.set(key, { key, file: file.path, line: lineOf(member, key) });
}
