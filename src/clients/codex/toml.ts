import type * as Toml from 'toml-eslint-parser';
import type { AST } from 'toml-eslint-parser';
import { AuditError } from '../../errors.js';

/*
 * A TOML file read for the places of its keys as well as their values: a finding names the line
 * of the setting that decided, and the writer edits the text (no TOML library keeps formatting),
 * so it needs where each table and key is. toml-eslint-parser gives both from one parse: the
 * values, and an AST with the range of every key, table header and value. It is loaded on first
 * use (loadToml), as most runs read no Codex file. TOML 1.1, as Codex 0.171.0 reads it (inline
 * tables over several lines, \e and \x escapes: observed). Pure.
 */

type Parser = typeof Toml;
let parser: Parser | undefined;

/** Loads the TOML parser (a separate chunk of the bundle); read and write call it first. */
export async function loadToml(): Promise<void> {
  const module = (await import('toml-eslint-parser')) as Parser & { default?: Parser };
  parser ??= typeof module.parseTOML === 'function' ? module : module.default;
}

/** A key path: table names and key names, unquoted. */
export type TomlPath = readonly string[];

/** One `key = value` of the file, wherever it is written (a section, a dotted key, an inline table). */
export interface TomlEntry {
  path: TomlPath;
  node: AST.TOMLKeyValue;
  /** 1-based line of the key. */
  line: number;
  /** The setting as written: the table header it is under, then the key and value. */
  text: string;
  /** The `[table]` it is written under (undefined at the top of the file). */
  section?: AST.TOMLTable;
  /** Written inside an inline table (`{ ... }`), which TOML closes to every later key. */
  inline: boolean;
}

export interface TomlDocument {
  text: string;
  /** The values, as plain data (integers as numbers, dates as Date). */
  data: Record<string, unknown>;
  /** Every key-value, by its full path (pathKey). */
  entries: Map<string, TomlEntry>;
  /** Every `[table]` header (not `[[array]]`), by its path. */
  tables: Map<string, AST.TOMLTable>;
  /** The `[[array]]` headers and everything else the writer must not extend. */
  top: AST.TOMLTopLevelTable;
}

/** The map key of a path. */
export const pathKey = (path: TomlPath): string => JSON.stringify(path);

const keyNames = (key: AST.TOMLKey): string[] =>
  key.keys.map((k) => (k.type === 'TOMLBare' ? k.name : k.value));

/**
 * Parses TOML text, or throws AuditError naming the file, line and column, as a parse failure
 * of the file is never read as "no settings".
 */
export function parseToml(text: string, file: string): TomlDocument {
  if (!parser) throw new Error('internal: loadToml() was not awaited before parseToml()');
  let ast: AST.TOMLProgram;
  try {
    ast = parser.parseTOML(text, { tomlVersion: '1.1.0' });
  } catch (error) {
    const e = error as { message?: string; lineNumber?: number; column?: number };
    throw new AuditError(
      `${file} is not valid TOML at line ${e.lineNumber ?? 1}, column ${(e.column ?? 0) + 1}: ${e.message ?? String(error)}.`,
      'Fix that line: Codex refuses to start with a config file that does not parse.',
    );
  }
  const top = ast.body[0];
  const data = parser.getStaticTOMLValue(ast) as Record<string, unknown>;
  const entries = new Map<string, TomlEntry>();
  const tables = new Map<string, AST.TOMLTable>();
  const add = (
    kv: AST.TOMLKeyValue,
    base: TomlPath,
    section: AST.TOMLTable | undefined,
    inline: boolean,
  ) => {
    const path = [...base, ...keyNames(kv.key)];
    const header = section ? `${text.slice(...section.key.range)}` : undefined;
    const written = text.slice(...kv.range);
    entries.set(pathKey(path), {
      path,
      node: kv,
      line: kv.loc.start.line,
      text: header && !inline ? `[${header}] ${written}` : written,
      ...(section ? { section } : {}),
      inline,
    });
    if (kv.value.type === 'TOMLInlineTable')
      for (const inner of kv.value.body) add(inner, path, section, true);
  };
  for (const item of top.body) {
    if (item.type === 'TOMLKeyValue') {
      add(item, [], undefined, false);
      continue;
    }
    // An [[array]] element's keys are never settings Codex reads for a server: skipped.
    if (item.kind === 'array' || item.resolvedKey.some((k) => typeof k !== 'string')) continue;
    const base = item.resolvedKey as string[];
    tables.set(pathKey(base), item);
    for (const kv of item.body) add(kv, base, item, false);
  }
  return { text, data, entries, tables, top };
}

/** The value at `path` in the parsed data, or undefined. */
export function valueAt(data: Record<string, unknown>, path: TomlPath): unknown {
  let at: unknown = data;
  for (const part of path) {
    if (typeof at !== 'object' || at === null || Array.isArray(at)) return undefined;
    at = Object.hasOwn(at, part) ? (at as Record<string, unknown>)[part] : undefined;
  }
  return at;
}

/** A key as TOML writes it: bare when it can be, else a basic string. */
export function tomlKey(name: string): string {
  return /^[A-Za-z0-9_-]+$/.test(name) ? name : tomlString(name);
}

/** A basic string: JSON's escapes are TOML's, plus DEL, which TOML wants escaped too. */
export function tomlString(value: string): string {
  return JSON.stringify(value).replace(/\u007f/g, '\\u007F');
}
