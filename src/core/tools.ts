import * as z from 'zod/v4';
import { bound } from '../escape.js';
import { lazily } from '../lazy.js';
import { sha256Hex } from './digest.js';

/** The four hints of the spec's ToolAnnotations, in the order reports show them. */
export const HINT_NAMES = [
  'readOnlyHint',
  'destructiveHint',
  'idempotentHint',
  'openWorldHint',
] as const;
export type HintName = (typeof HINT_NAMES)[number];

/** The spec's defaults, applied by us: the SDK does not fill them in. */
export const HINT_DEFAULTS: Record<HintName, boolean> = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

/** A tool as the server sent it, after validation of the parts we read. */
export interface ListedTool {
  name: string;
  title?: string;
  description?: string;
  /** sha256 of the whole description as sent, before `description` was cut to MAX_DESCRIPTION. */
  descriptionDigest?: string;
  inputSchema?: unknown;
  annotations?: {
    title?: string;
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
}

/** A tool the server sent that fails validation; kept so it becomes a finding, not a crash. */
export interface MalformedTool {
  /** The name if one could be read, else `#<index>` of its position in the listing. */
  label: string;
  problems: string[];
}

/** The schema of what we read of a tool; built only when a tool fails the fast check. */
const toolSchema = lazily(() => {
  const annotationsSchema = z
    .object({
      title: z.string().optional(),
      readOnlyHint: z.boolean().optional(),
      destructiveHint: z.boolean().optional(),
      idempotentHint: z.boolean().optional(),
      openWorldHint: z.boolean().optional(),
    })
    .loose();

  return z
    .object({
      name: z.string().min(1),
      title: z.string().optional(),
      description: z.string().optional(),
      inputSchema: z.record(z.string(), z.unknown()).optional(),
      annotations: annotationsSchema.optional(),
    })
    .loose();
});

type ToolFields = {
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  inputSchema?: unknown;
  annotations?: Record<string, unknown> | undefined;
};

/**
 * The longest description kept: what a reviewer reads of one, and what every report holds of it.
 * A longer one is cut, marked with `…`.
 */
export const MAX_DESCRIPTION = 4_000;

/**
 * The deepest input schema read: its hash walks it, and a schema nested thousands of levels deep
 * (no real one is) would overflow the stack. Such a tool is malformed; the others are audited.
 */
export const MAX_SCHEMA_DEPTH = 100;

/**
 * Whether arrays and objects nest more than `max` levels in `value`. It recurses at most `max`
 * levels before it answers, so never too deep, and builds nothing on the way down.
 */
export function nestedDeeperThan(value: unknown, max: number, depth = 1): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (depth > max) return true;
  if (Array.isArray(value)) {
    for (const child of value as unknown[])
      if (nestedDeeperThan(child, max, depth + 1)) return true;
    return false;
  }
  for (const child of Object.values(value))
    if (nestedDeeperThan(child, max, depth + 1)) return true;
  return false;
}

/** The parts of a valid tool we read; unknown fields, in the tool and its annotations, are dropped. */
function pick({ name, title, description, inputSchema, annotations }: ToolFields): ListedTool {
  const tool: ListedTool = { name };
  if (title !== undefined) tool.title = title;
  if (description !== undefined) {
    tool.description = bound(description, MAX_DESCRIPTION);
    // The pin covers what was cut too: a change past the cut is still a change.
    if (tool.description !== description) tool.descriptionDigest = sha256Hex(description);
  }
  if (inputSchema !== undefined) tool.inputSchema = inputSchema;
  if (annotations !== undefined) {
    const kept: NonNullable<ListedTool['annotations']> = {};
    if (annotations.title !== undefined) kept.title = annotations.title as string;
    for (const hint of HINT_NAMES) {
      const value = annotations[hint];
      if (value !== undefined) kept[hint] = value as boolean;
    }
    tool.annotations = kept;
  }
  return tool;
}

/** A JSON object (not null, not an array): what zod's object and record schemas accept here. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const optional = (value: unknown, type: 'string' | 'boolean'): boolean =>
  value === undefined || typeof value === type;

/**
 * Whether every field we read has the right type, checked without zod: at thousands of tools,
 * zod was most of the validation time. It accepts only what `toolSchema` accepts (a test holds the
 * two together); a tool it does not accept goes to zod, which decides and says what is wrong.
 */
function isWellFormed(raw: unknown): raw is ToolFields {
  if (!isObject(raw)) return false;
  const { name, title, description, inputSchema, annotations } = raw;
  return (
    typeof name === 'string' &&
    name.length > 0 &&
    optional(title, 'string') &&
    optional(description, 'string') &&
    // zod's record schema drops a `__proto__` key: such a schema goes to zod, to hash the same.
    (inputSchema === undefined ||
      (isObject(inputSchema) && !Object.hasOwn(inputSchema, '__proto__'))) &&
    (annotations === undefined ||
      (isObject(annotations) &&
        optional(annotations.title, 'string') &&
        HINT_NAMES.every((hint) => optional(annotations[hint], 'boolean'))))
  );
}

/**
 * Validates one raw tool from `tools/list`. One tool at a time, so a malformed tool is reported
 * while the others are still audited.
 */
export function parseTool(raw: unknown, index: number): ListedTool | MalformedTool {
  const tool = isWellFormed(raw) ? pick(raw) : parseWithZod(raw, index);
  if (!isMalformed(tool) && nestedDeeperThan(tool.inputSchema, MAX_SCHEMA_DEPTH))
    return {
      label: tool.name,
      problems: [`inputSchema: nested more than ${MAX_SCHEMA_DEPTH} levels deep`],
    };
  return tool;
}

/** The schema's verdict; exported for the test that holds the fast check and the schema together. */
export function parseWithZod(raw: unknown, index: number): ListedTool | MalformedTool {
  const parsed = toolSchema().safeParse(raw);
  if (parsed.success) return pick(parsed.data);
  const name =
    raw && typeof raw === 'object' && typeof (raw as { name?: unknown }).name === 'string'
      ? (raw as { name: string }).name
      : undefined;
  return {
    label: name && name.length > 0 ? name : `#${index}`,
    problems: parsed.error.issues.map((issue) => {
      const where = issue.path.length ? issue.path.join('.') : 'tool';
      return `${where}: ${issue.message}`;
    }),
  };
}

export function isMalformed(tool: ListedTool | MalformedTool): tool is MalformedTool {
  return 'problems' in tool;
}
