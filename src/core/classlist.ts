import { compareText } from './order.js';
import * as z from 'zod/v4';
import { lazily } from '../lazy.js';
import {
  REACHES,
  TITLE_SOURCES,
  TOOL_CLASSES,
  type ClassifiedTool,
  type HintState,
  type Reach,
  type TitleSource,
  type ToolClass,
} from './classify.js';
import { parseJsonText, withJsonPositions } from './jsontext.js';
import { shapes } from './schemas.js';
import { AuditError, describeError } from '../errors.js';
import { reviewedJson, terminalSafe } from '../escape.js';
import { HINT_NAMES, isObject, type HintName } from './tools.js';
import type { Pin } from './pins.js';

/** A hint as the class list records it: the declared value, or "absent". */
export type RecordedHint = boolean | 'absent';

/** One reviewed tool in the class list. */
export interface ToolRecord {
  server: string;
  tool: string;
  class: ToolClass;
  reach: Reach;
  hints: Record<HintName, RecordedHint>;
  title: string;
  titleSource: TitleSource;
  /** Hash of the input schema, to recognise a rename. */
  schema: string;
  /** Why the class is right, written by a person; `update` keeps it. */
  reason?: string;
  /**
   * The reviewed description and input schema (digests, and their text to show a change). A
   * class list written before pins has none: it compares as before, and gains them at `update`.
   */
  pin?: Pin;
}

export interface ClassList {
  $schema?: string;
  tools: Map<string, ToolRecord>;
}

export const CLASS_LIST_VERSION = 1;

/**
 * Server names as Claude Code writes them into `mcp__<server>__<tool>`: characters outside
 * A-Z a-z 0-9 _ - become `_`.
 */
export function normalizeServerName(name: string): string {
  const normalized = name.replace(/[^A-Za-z0-9_-]/g, '_');
  return normalized.length ? normalized : 'server';
}

export function fullToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool}`;
}

/** A hint as the class list records it: the declared value, or "absent". */
export function recordedHint(state: HintState): RecordedHint {
  return state.declared ? (state.value as boolean) : 'absent';
}

export function toRecord(server: string, tool: ClassifiedTool): ToolRecord {
  const recorded = (h: HintName): RecordedHint => recordedHint(tool.hints[h]);
  const hints: Record<HintName, RecordedHint> = {
    readOnlyHint: recorded('readOnlyHint'),
    destructiveHint: recorded('destructiveHint'),
    idempotentHint: recorded('idempotentHint'),
    openWorldHint: recorded('openWorldHint'),
  };
  const record: ToolRecord = {
    server,
    tool: tool.name,
    class: tool.class,
    reach: tool.reach,
    hints,
    title: tool.title,
    titleSource: tool.titleSource,
    schema: tool.schemaHash,
  };
  if (tool.pin) record.pin = tool.pin;
  return record;
}

/** The class list's schemas; built only when an entry fails the fast check. */
const schemas = lazily(() => {
  const { toolClass, reach, recordedHints, titleSource } = shapes();
  const digest = z.string().regex(DIGEST);
  const recordSchema = z.strictObject({
    server: z.string().min(1),
    tool: z.string().min(1),
    class: toolClass,
    reach,
    hints: recordedHints,
    title: z.string(),
    titleSource,
    schema: z.string(),
    reason: z.string().optional(),
    pin: z
      .strictObject({
        description: z.string(),
        descriptionDigest: digest,
        inputSchemaDigest: digest,
        inputSchema: z.string().optional(),
      })
      .optional(),
  });
  const fileSchema = z.strictObject({
    $schema: z.string().optional(),
    version: z.literal(CLASS_LIST_VERSION),
    tools: z.record(z.string(), z.unknown()),
  });
  return { record: recordSchema, file: fileSchema };
});

const RECORD_FIELDS = new Set([
  'server',
  'tool',
  'class',
  'reach',
  'hints',
  'title',
  'titleSource',
  'schema',
  'reason',
  'pin',
]);
const PIN_FIELDS = new Set([
  'description',
  'descriptionDigest',
  'inputSchemaDigest',
  'inputSchema',
]);
/** A pin's digest: sha256, in lower-case hex. */
const DIGEST = /^[0-9a-f]{64}$/;
const isDigest = (value: unknown): boolean => typeof value === 'string' && DIGEST.test(value);
/** Whether a pin is well formed (absent is: a class list written before pins). */
function isWellFormedPin(pin: unknown): boolean {
  return (
    pin === undefined ||
    (isObject(pin) &&
      onlyFields(pin, PIN_FIELDS) &&
      typeof pin.description === 'string' &&
      isDigest(pin.descriptionDigest) &&
      isDigest(pin.inputSchemaDigest) &&
      (pin.inputSchema === undefined || typeof pin.inputSchema === 'string'))
  );
}
const FILE_FIELDS = new Set(['$schema', 'version', 'tools']);
const isRecordedHint = (value: unknown): boolean =>
  typeof value === 'boolean' || value === 'absent';
const nonEmpty = (value: unknown): boolean => typeof value === 'string' && value.length > 0;
const oneOf = (values: readonly string[], value: unknown): boolean =>
  typeof value === 'string' && values.includes(value);
const onlyFields = (value: Record<string, unknown>, fields: Set<string>): boolean =>
  Object.keys(value).every((key) => fields.has(key));

/**
 * Whether an entry is well formed, checked without zod (a class list can hold thousands). It
 * accepts only what `recordSchema` accepts (a test holds the two together); anything else goes to
 * zod, which decides and says what is wrong.
 */
function isWellFormedRecord(raw: unknown): raw is ToolRecord {
  if (!isObject(raw) || !onlyFields(raw, RECORD_FIELDS)) return false;
  const { hints } = raw;
  return (
    nonEmpty(raw.server) &&
    nonEmpty(raw.tool) &&
    oneOf(TOOL_CLASSES, raw.class) &&
    oneOf(REACHES, raw.reach) &&
    isObject(hints) &&
    Object.keys(hints).length === HINT_NAMES.length &&
    HINT_NAMES.every((hint) => isRecordedHint(hints[hint])) &&
    typeof raw.title === 'string' &&
    oneOf(TITLE_SOURCES, raw.titleSource) &&
    typeof raw.schema === 'string' &&
    (raw.reason === undefined || typeof raw.reason === 'string') &&
    isWellFormedPin(raw.pin)
  );
}

/** An entry with its fields, and the hints, in the schema's order: as zod outputs it, as files hold it. */
function copyRecord(raw: ToolRecord): ToolRecord {
  const { hints } = raw;
  const record: ToolRecord = {
    server: raw.server,
    tool: raw.tool,
    class: raw.class,
    reach: raw.reach,
    hints: {
      readOnlyHint: hints.readOnlyHint,
      destructiveHint: hints.destructiveHint,
      idempotentHint: hints.idempotentHint,
      openWorldHint: hints.openWorldHint,
    },
    title: raw.title,
    titleSource: raw.titleSource,
    schema: raw.schema,
  };
  if (raw.pin !== undefined) record.pin = copyPin(raw.pin);
  // The one field a person writes stays last, where files written before pins had it.
  if (raw.reason !== undefined) record.reason = raw.reason;
  return record;
}

/** A pin with its fields in the schema's order. */
function copyPin(raw: Pin): Pin {
  const pin: Pin = {
    description: raw.description,
    descriptionDigest: raw.descriptionDigest,
    inputSchemaDigest: raw.inputSchemaDigest,
  };
  if (raw.inputSchema !== undefined) pin.inputSchema = raw.inputSchema;
  return pin;
}

/**
 * The same for the file around the entries, against `fileSchema`. A `__proto__` key among the
 * tools goes to zod, whose record schema drops it.
 */
function isWellFormedFile(
  data: unknown,
): data is { $schema?: string; version: number; tools: Record<string, unknown> } {
  return (
    isObject(data) &&
    onlyFields(data, FILE_FIELDS) &&
    (data.$schema === undefined || typeof data.$schema === 'string') &&
    data.version === CLASS_LIST_VERSION &&
    isObject(data.tools) &&
    !Object.hasOwn(data.tools, '__proto__')
  );
}

/** The schemas' verdicts, for the test that holds the fast checks and the schemas together. */
export const classListSchemas = schemas;
export const wellFormed = { record: isWellFormedRecord, file: isWellFormedFile, copyRecord };

/**
 * A line's leading key, `"mcp__…":`, matched from the line's start (sticky) and never past its
 * end: `[^\S\n]` is white space but the line break, `.` never matches one.
 */
const LINE_KEY = /[^\S\n]*("mcp__(?:[^"\\\n]|\\.)*")[^\S\n]*:/y;

/**
 * The line of every tool's key in the file, in one pass: annotations and error messages point at
 * these lines, and looking each one up in the text would make a large list quadratic. Only the
 * lines where `"mcp__` occurs are matched, each once from its start (a class list of 10,000 tools
 * has some 200,000 lines, one in twenty a key), and every other character is looked at by a
 * search that never goes back: each line break is found once, and a line once matched is left
 * for the next, however many times `"mcp__` occurs on it (a class list the PR wrote on one line).
 */
export function toolLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  let line = 1;
  let lineStart = 0;
  let lineEnd = text.indexOf('\n');
  for (let at = text.indexOf('"mcp__'); at >= 0;) {
    while (lineEnd >= 0 && lineEnd < at) {
      line++;
      lineStart = lineEnd + 1;
      lineEnd = text.indexOf('\n', lineStart);
    }
    LINE_KEY.lastIndex = lineStart;
    const key = LINE_KEY.exec(text)?.[1];
    if (key !== undefined)
      try {
        const name = JSON.parse(key) as string;
        if (!lines.has(name)) lines.set(name, line);
      } catch {
        // Not a JSON string after all: no line for it.
      }
    if (lineEnd < 0) break;
    at = text.indexOf('"mcp__', lineEnd + 1);
  }
  return lines;
}

/**
 * Parses a class list. Any problem is an AuditError naming the file and line: a broken class list
 * stops the audit and is never overwritten.
 */
export function parseClassList(text: string, path: string): ClassList {
  const { data } = parseJsonText(
    text,
    `The class list ${path}`,
    `Fix that line (or restore the file with git checkout -- ${path}); the auditor will not overwrite a file it cannot read.`,
  );
  const file = isWellFormedFile(data)
    ? { success: true as const, data }
    : schemas().file.safeParse(data);
  if (!file.success) {
    const issue = file.error.issues[0];
    throw new AuditError(
      `The class list ${path} does not have the expected shape: ${issue ? `${issue.path.join('.') || 'top level'}: ${issue.message}` : 'unknown problem'}.`,
      `It must be {"version": ${CLASS_LIST_VERSION}, "tools": {...}} as written by mcp-annotation-auditor update.`,
    );
  }
  const tools = new Map<string, ToolRecord>();
  // Only an error needs a line; most parses never build the index.
  let lines: Map<string, number> | undefined;
  const lineOf = (key: string) => {
    lines ??= toolLines(text);
    const line = lines.get(key);
    return line ? ` (line ${line})` : '';
  };
  for (const [key, raw] of Object.entries(file.data.tools)) {
    const parsed = isWellFormedRecord(raw)
      ? { success: true as const, data: copyRecord(raw) }
      : schemas().record.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new AuditError(
        `The class list ${path} has a broken entry ${JSON.stringify(key)}${lineOf(key)}: ${issue ? `${issue.path.join('.') || 'entry'}: ${issue.message}` : 'invalid'}.`,
        `Fix the entry by hand (only "reason" is meant to be edited), or restore the file with git checkout -- ${path}; then run update, which never overwrites a class list it cannot read.`,
      );
    }
    const record: ToolRecord = parsed.data;
    if (key !== fullToolName(record.server, record.tool))
      throw new AuditError(
        `The class list ${path} has an entry keyed ${JSON.stringify(key)}${lineOf(key)} for tool "${record.tool}" of server "${record.server}".`,
        `Its key must be ${JSON.stringify(fullToolName(record.server, record.tool))}: fix it by hand, or restore the file with git checkout -- ${path}; then run update, which never overwrites a class list it cannot read.`,
      );
    tools.set(key, record);
  }
  const list: ClassList = { tools };
  if (file.data.$schema !== undefined) list.$schema = file.data.$schema;
  return list;
}

/** The base class list's text as read (null: the base has none), and how people name it. */
export interface BaseText {
  text: string | null;
  label: string;
  /** The file it was read from, when it is one (--base): what a parse error names. */
  file?: string;
}

/**
 * The base class list as the audit is to get it, or a warning instead. A base that could not be
 * read is an error before this (a dropped hint would pass unseen), but one that is there and does
 * not parse must not block the PR that repairs it: it is no base, so the live server is compared
 * with the class list at HEAD, and the warning says so. `where` names it in the warning (`path at
 * the base commit`). Shared by the action and the CLI (--base, --base-ref).
 */
export async function usableBase<B extends { text: string | null }>(
  base: B,
  where: string,
): Promise<{ base?: B; warning?: string }> {
  try {
    const { text } = base;
    if (text !== null) await withJsonPositions(() => parseClassList(text, where));
  } catch (error) {
    return {
      warning: `${terminalSafe(describeError(error), 600)} Comparing with the class list at HEAD only.`,
    };
  }
  return { base };
}

/**
 * The file text: sorted keys, fixed field order, two-space indent, LF, trailing newline. Bidi and
 * invisible characters, DEL and the C1 controls are written as `\uXXXX` escapes (JSON.parse reads
 * them back the same), so the diff reviewers read shows them and is not reordered or driven by
 * them.
 */
export function serializeClassList(list: ClassList): string {
  const tools: Record<string, unknown> = {};
  for (const key of [...list.tools.keys()].sort(compareText)) {
    tools[key] = copyRecord(list.tools.get(key) as ToolRecord);
  }
  const file: Record<string, unknown> = {};
  if (list.$schema !== undefined) file.$schema = list.$schema;
  file.version = CLASS_LIST_VERSION;
  file.tools = tools;
  // Outside strings the text is ASCII: only characters inside strings are rewritten.
  return `${reviewedJson(file, 2)}\n`;
}

/** The entries of one server. */
export function recordsOf(list: ClassList | undefined, server: string): Map<string, ToolRecord> {
  const out = new Map<string, ToolRecord>();
  if (list) for (const [key, r] of list.tools) if (r.server === server) out.set(key, r);
  return out;
}
