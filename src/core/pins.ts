// What pins the reviewed version of a tool: a digest of its description and of its input schema
// (canonical JSON), with the description itself and the schema's canonical text, both bounded,
// so a later change can be shown to a reviewer, not only detected. Pure.
import { bound } from '../escape.js';
import { canonicalJson, sha256Hex } from './digest.js';

/** The longest description or schema text a pin keeps to show; the digests cover all of it. */
export const MAX_PINNED_TEXT = 4_000;
/** The most changed schema paths a change lists; the rest are counted. */
export const MAX_SCHEMA_PATHS = 20;

/** A tool's description and input schema as reviewed: what `update` records in the class list. */
export interface Pin {
  /** The description as read (cut at MAX_PINNED_TEXT, marked with `…`); empty when none. */
  description: string;
  /** sha256 of the whole description, as the server sent it (before any cut). */
  descriptionDigest: string;
  /** sha256 of the input schema's canonical JSON (sorted keys). */
  inputSchemaDigest: string;
  /** That canonical JSON, when it fits MAX_PINNED_TEXT: what the changed paths are read from. */
  inputSchema?: string;
}

/**
 * The pin of a tool as listed: its description as read (already cut to MAX_DESCRIPTION), the
 * digest of the whole one as the server sent it, and its schema's canonical text.
 */
export function pinOf(
  description: string | undefined,
  descriptionDigest: string | undefined,
  schemaText: string,
): Pin {
  const text = description ?? '';
  const pin: Pin = {
    description: bound(text, MAX_PINNED_TEXT),
    descriptionDigest: descriptionDigest ?? sha256Hex(text),
    inputSchemaDigest: sha256Hex(schemaText),
  };
  if (schemaText.length <= MAX_PINNED_TEXT) pin.inputSchema = schemaText;
  return pin;
}

/** The canonical text of an input schema, as its digest reads it (none: `{}`). */
export function schemaText(schema: unknown): string {
  return canonicalJson(schema ?? {});
}

/** How a pinned description changed: the old and the new text, as pinned (bounded). */
export interface DescriptionChange {
  before: string;
  after: string;
}

/**
 * How a pinned input schema changed: the paths that differ (`properties.query.type`), or none
 * when a side was too large to keep (only its digest is known), and how many more there are.
 */
export interface SchemaChange {
  paths?: string[];
  more?: number;
}

function parsed(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const isPlain = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every path at which `a` and `b` differ, walked together; iterative, in key order. */
export function changedPaths(a: unknown, b: unknown): string[] {
  const out: string[] = [];
  const stack: [string, unknown, unknown][] = [['', a, b]];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [path, x, y] = item;
    if (x === undefined && y === undefined) continue;
    if (x === undefined || y === undefined || canonicalJson(x) !== canonicalJson(y)) {
      if (x === undefined || y === undefined) {
        out.push(path);
        continue;
      }
    } else continue;
    const both = (isPlain(x) && isPlain(y)) || (Array.isArray(x) && Array.isArray(y));
    if (!both) {
      out.push(path || '(the whole schema)');
      continue;
    }
    const keys = [...new Set([...Object.keys(x as object), ...Object.keys(y as object)])].sort();
    for (const key of keys.reverse()) {
      const at = (v: unknown) => (v as Record<string, unknown>)[key];
      const child = Array.isArray(x) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
      stack.push([
        child,
        Object.hasOwn(x as object, key) ? at(x) : undefined,
        Object.hasOwn(y as object, key) ? at(y) : undefined,
      ]);
    }
  }
  return out;
}

/** What changed between two pins (both present: a class list without pins compares as before). */
export function pinChanges(
  before: Pin | undefined,
  after: Pin | undefined,
): { description?: DescriptionChange; inputSchema?: SchemaChange } {
  if (!before || !after) return {};
  const out: { description?: DescriptionChange; inputSchema?: SchemaChange } = {};
  if (before.descriptionDigest !== after.descriptionDigest)
    out.description = { before: before.description, after: after.description };
  if (before.inputSchemaDigest !== after.inputSchemaDigest) {
    const [x, y] = [parsed(before.inputSchema), parsed(after.inputSchema)];
    if (x === undefined || y === undefined) out.inputSchema = {};
    else {
      const paths = changedPaths(x, y);
      out.inputSchema = { paths: paths.slice(0, MAX_SCHEMA_PATHS) };
      if (paths.length > MAX_SCHEMA_PATHS) out.inputSchema.more = paths.length - MAX_SCHEMA_PATHS;
    }
  }
  return out;
}
