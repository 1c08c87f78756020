import { AuditError } from '../../errors.js';
import { expectedDecision, type ClassDecisions, type ClientTool } from '../client.js';
import type { ApprovalMode } from './model.js';
import {
  parseToml,
  pathKey,
  tomlKey,
  tomlString,
  valueAt,
  type TomlDocument,
  type TomlPath,
} from './toml.js';

/*
 * The class list's rules as Codex settings: `[mcp_servers.<key>.tools.<tool>] approval_mode` for
 * every recorded tool, never left to `auto` (which decides from the annotations under review).
 * Codex has no per-tool refusal short of hiding the tool, so deny is written as "prompt": it
 * asks every time. The text is edited where it stands: a value replaced, a key added under its
 * table, a table added at the end; every other byte is kept. The result is parsed back and
 * checked before it is returned. Pure.
 */

/** The approval_mode each decision is written as. */
export const MODE_FOR: Record<ClassDecisions[keyof ClassDecisions], ApprovalMode> = {
  allow: 'approve',
  ask: 'prompt',
  deny: 'prompt',
};

interface Edit {
  at: number;
  remove: number;
  insert: string;
}

/** Where the line holding `offset` ends, past its line break (or the end of the text). */
function lineEnd(text: string, offset: number): number {
  const at = text.indexOf('\n', offset);
  return at < 0 ? text.length : at + 1;
}

/** A key written inside an inline table, or a value that is not a table, on the way to `path`. */
function sealedOnTheWay(doc: TomlDocument, path: TomlPath, file: string): void {
  for (let n = 1; n < path.length; n++) {
    const entry = doc.entries.get(pathKey(path.slice(0, n)));
    if (!entry) continue;
    throw new AuditError(
      `Cannot add ${path.join('.')} to ${file}: ${entry.path.join('.')} (line ${entry.line}) is ${entry.node.value.type === 'TOMLInlineTable' ? 'an inline table, which TOML closes to any later key' : 'not a table'}.`,
      `Write approval_mode there by hand, or turn it into [${path.slice(0, -1).map(tomlKey).join('.')}] tables and run the command again.`,
    );
  }
}

/** The edit that sets `path` (a tool's approval_mode) to `mode`, or undefined when it is already so. */
function editFor(
  doc: TomlDocument,
  path: TomlPath,
  mode: ApprovalMode,
  file: string,
  eol: string,
): Edit | { append: string } | undefined {
  const line = `approval_mode = ${tomlString(mode)}${eol}`;
  const entry = doc.entries.get(pathKey(path));
  if (entry) {
    if (valueAt(doc.data, path) === mode) return undefined;
    const [from, to] = entry.node.value.range;
    return { at: from, remove: to - from, insert: tomlString(mode) };
  }
  sealedOnTheWay(doc, path, file);
  const table = path.slice(0, -1);
  const header = doc.tables.get(pathKey(table));
  if (header) return { at: lineEnd(doc.text, header.key.range[1]), remove: 0, insert: line };
  // A table made by dotted keys (`tools.add_note.x = 1` under [mcp_servers.notes]): a dotted key
  // beside them, in the same section, since a [table] header cannot define it again.
  for (const e of doc.entries.values()) {
    if (e.inline || e.path.length <= table.length || !table.every((p, i) => e.path[i] === p))
      continue;
    const base = e.section ? e.section.resolvedKey.length : 0;
    const key = path.slice(base).map(tomlKey).join('.');
    return {
      at: lineEnd(doc.text, e.node.range[1]),
      remove: 0,
      insert: `${key} = ${tomlString(mode)}${eol}`,
    };
  }
  return { append: `[${table.map(tomlKey).join('.')}]${eol}${line}` };
}

/**
 * `data` without the settings at `paths`, and without the tables left empty by that which
 * `before` did not have (the writer made them): what must be equal before and after a write.
 */
function without(data: unknown, paths: TomlPath[], before: unknown): unknown {
  const copy = structuredClone(data);
  for (const path of paths)
    for (let n = path.length; n > 0; n--) {
      const at = path.slice(0, n);
      const parent = valueAt(copy as Record<string, unknown>, at.slice(0, -1));
      const key = at[n - 1] as string;
      if (typeof parent !== 'object' || parent === null || !Object.hasOwn(parent, key)) break;
      const value = (parent as Record<string, unknown>)[key];
      const madeEmpty =
        typeof value === 'object' &&
        value !== null &&
        !Object.keys(value).length &&
        valueAt(before as Record<string, unknown>, at) === undefined;
      if (n < path.length && !madeEmpty) break;
      delete (parent as Record<string, unknown>)[key];
    }
  return copy;
}

const stable = (value: unknown): string =>
  JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));

/**
 * `existing` (the file's text, or undefined when there is none) with an approval_mode for every
 * tool, from its expected decision (its own mapping, else its class's); everything else kept byte for byte. Throws AuditError when the
 * text does not parse, or when a setting sits where TOML allows no key to be added.
 */
export function writeCodexRules(
  existing: string | undefined,
  tools: ClientTool[],
  mapping: ClassDecisions,
  file: string,
): string {
  const text = existing ?? '';
  const doc = parseToml(text, file);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const paths: TomlPath[] = [];
  const edits: Edit[] = [];
  const appended: string[] = [];
  const sorted = [...tools].sort(
    (a, b) => a.server.localeCompare(b.server) || a.tool.localeCompare(b.tool),
  );
  for (const tool of sorted) {
    const path = ['mcp_servers', tool.server, 'tools', tool.tool, 'approval_mode'];
    paths.push(path);
    const edit = editFor(doc, path, MODE_FOR[expectedDecision(tool, mapping)], file, eol);
    if (edit && 'append' in edit) appended.push(edit.append);
    else if (edit) edits.push(edit);
  }
  // From the end, so earlier offsets stay right; inserts at one place keep their order.
  let out = text;
  edits
    .map((e, i) => ({ ...e, i }))
    .sort((a, b) => b.at - a.at || b.i - a.i)
    .forEach((e) => (out = out.slice(0, e.at) + e.insert + out.slice(e.at + e.remove)));
  if (appended.length) {
    if (out && !out.endsWith('\n')) out += eol;
    out += (out ? eol : '') + appended.join(eol);
  }
  return checked(out, doc, paths, sorted, mapping, file);
}

/** The written text, parsed back: each tool's mode is set and nothing else changed. */
function checked(
  out: string,
  before: TomlDocument,
  paths: TomlPath[],
  tools: ClientTool[],
  mapping: ClassDecisions,
  file: string,
): string {
  const after = parseToml(out, file);
  tools.forEach((tool, i) => {
    if (valueAt(after.data, paths[i] as TomlPath) !== MODE_FOR[expectedDecision(tool, mapping)])
      throw new Error(
        `internal: the written ${file} does not set ${(paths[i] as TomlPath).join('.')}`,
      );
  });
  if (
    stable(without(after.data, paths, before.data)) !==
    stable(without(before.data, paths, before.data))
  )
    throw new Error(`internal: writing ${file} changed settings other than approval_mode`);
  return out;
}
