// OpenAI's tool-hint-justifications.json (schema v1): per tool, the three hints the Apps SDK's
// review reads and a justification of each, written by a person. Read (every value checked, one
// tool at a time), written from the class list (edits placed by jsonc-parser, so every other
// byte of the file stays), and compared with the live tools for the justification rules. Pure.
import { compareText } from './order.js';
import type { RecordedHint, ToolRecord } from './classlist.js';
import { applyJsonEdits, parseJsonText, type JsonEdit } from './jsontext.js';
import { AuditError } from '../errors.js';
import { reviewedJson, terminalSafe } from '../escape.js';
import { isObject } from './tools.js';

export const JUSTIFICATIONS_SCHEMA =
  'https://developers.openai.com/apps-sdk/schemas/tool-hint-justifications.v1.json';

/** The hints the file declares, each with the key of its justification, in the file's order. */
export const JUSTIFIED = [
  ['readOnlyHint', 'read_only_justification'],
  ['openWorldHint', 'open_world_justification'],
  ['destructiveHint', 'destructive_justification'],
] as const;
export type JustifiedHint = (typeof JUSTIFIED)[number][0];
export type JustificationKey = (typeof JUSTIFIED)[number][1];

/** A hint as the file declares it: null is "not declared", which blocks a submission. */
export type DeclaredHint = boolean | null;

/** One tool's entry as the file holds it; a key the file lacks is absent. */
export interface JustificationEntry {
  annotations: Partial<Record<JustifiedHint, DeclaredHint>>;
  justifications: Partial<Record<JustificationKey, string>>;
}

/** The file's entries by tool name (the name the server lists, without its server). */
export type Justifications = Map<string, JustificationEntry>;

/** The start of every placeholder the auditor writes: a justification is a person's to write. */
export const PLACEHOLDER_MARK = 'TODO:';

/** Whether a justification is still to be written: empty, or a placeholder left in. */
export function isPlaceholder(text: string | undefined): boolean {
  return text === undefined || !text.trim() || text.trimStart().startsWith(PLACEHOLDER_MARK);
}

/** The placeholder of a hint: what a person replaces with why the hint has this value. */
export function placeholderOf(hint: JustifiedHint, value: DeclaredHint): string {
  return value === null
    ? `${PLACEHOLDER_MARK} declare ${hint} on the tool, then write why it holds.`
    : `${PLACEHOLDER_MARK} write why ${hint} is ${value} for this tool.`;
}

/** A hint as the file declares it, from the class list's record (absent: null). */
export function declaredOf(recorded: RecordedHint): DeclaredHint {
  return recorded === 'absent' ? null : recorded;
}

const UNREAD = 'Fix the file by hand (it is JSON), or move it away and run justifications --write.';

/** An entry checked; an AuditError naming the tool and the key otherwise. */
function entryOf(tool: string, raw: unknown, path: string): JustificationEntry {
  const bad = (what: string) =>
    new AuditError(
      `${path}: the entry of ${terminalSafe(JSON.stringify(tool), 100)} ${what}.`,
      UNREAD,
    );
  if (!isObject(raw)) throw bad('is not an object');
  const entry: JustificationEntry = { annotations: {}, justifications: {} };
  const { annotations = {}, justifications = {} } = raw;
  if (!isObject(annotations)) throw bad('has annotations that are not an object');
  if (!isObject(justifications)) throw bad('has justifications that are not an object');
  for (const [hint, key] of JUSTIFIED) {
    const value = annotations[hint];
    if (value !== undefined && value !== null && typeof value !== 'boolean')
      throw bad(`declares ${hint} as ${terminalSafe(JSON.stringify(value), 60)}, not a boolean`);
    if (value !== undefined) entry.annotations[hint] = value;
    const text = justifications[key];
    if (text !== undefined && typeof text !== 'string') throw bad(`has a ${key} that is no text`);
    if (text !== undefined) entry.justifications[key] = text;
  }
  return entry;
}

/**
 * The entries of a justifications file. Text that is not JSON, a schema_version other than 1,
 * or an entry of the wrong shape is an AuditError naming the file (and the tool).
 */
export function parseJustifications(text: string, path: string): Justifications {
  const { data } = parseJsonText(text, `The justifications file ${path}`, UNREAD);
  if (!isObject(data))
    throw new AuditError(`The justifications file ${path} is not a JSON object.`, UNREAD);
  const file = data;
  if (file.schema_version !== undefined && file.schema_version !== 1)
    throw new AuditError(
      `The justifications file ${path} has schema_version ${terminalSafe(JSON.stringify(file.schema_version), 40)}; the auditor reads version 1.`,
    );
  const tools = file.tools ?? {};
  if (!isObject(tools))
    throw new AuditError(`The justifications file ${path}: tools is not an object.`, UNREAD);
  const out: Justifications = new Map();
  for (const [tool, raw] of Object.entries(tools)) out.set(tool, entryOf(tool, raw, path));
  return out;
}

/** Each tool's three hints as the class list records them, by tool name. */
export type WantedHints = Map<string, Record<JustifiedHint, DeclaredHint>>;

/**
 * The hints a justifications file should declare, from the class list's records: one entry per
 * tool name. Two servers recording the same tool name is an AuditError (the file has one entry
 * per name): the caller picks a server.
 */
export function wantedHints(records: Iterable<ToolRecord>): WantedHints {
  const out: WantedHints = new Map();
  const servers = new Map<string, string>();
  for (const r of records) {
    const other = servers.get(r.tool);
    if (other !== undefined && other !== r.server)
      throw new AuditError(
        `The class list records a tool ${terminalSafe(r.tool, 100)} of both ${terminalSafe(other, 60)} and ${terminalSafe(r.server, 60)}; the justifications file has one entry per tool name.`,
        'Name the one server of the app with --server.',
      );
    servers.set(r.tool, r.server);
    const hints = {} as Record<JustifiedHint, DeclaredHint>;
    for (const [hint] of JUSTIFIED) hints[hint] = declaredOf(r.hints[hint]);
    out.set(r.tool, hints);
  }
  return new Map([...out].sort(([a], [b]) => compareText(a, b)));
}

/** What a write did: the tools added, the justifications marked to rewrite, the orphans left. */
export interface JustificationsWrite {
  text: string;
  added: string[];
  /** A hint whose value changed: its justification, if a person wrote one, is marked to rewrite. */
  rewrite: { tool: string; hint: JustifiedHint; key: JustificationKey; value: DeclaredHint }[];
  /** Entries of tools the class list no longer records: kept, a person's text is not deleted. */
  orphaned: string[];
}

/** A new entry: the hints as recorded, each justification a placeholder. */
function newEntry(hints: Record<JustifiedHint, DeclaredHint>) {
  const annotations: Record<string, DeclaredHint> = {};
  const justifications: Record<string, string> = {};
  for (const [hint, key] of JUSTIFIED) {
    annotations[hint] = hints[hint];
    justifications[key] = placeholderOf(hint, hints[hint]);
  }
  return { annotations, justifications };
}

/** The placeholder that replaces a justification whose hint changed: the old text kept in it. */
function rewritePlaceholder(hint: JustifiedHint, value: DeclaredHint, old: string): string {
  return `${PLACEHOLDER_MARK} ${hint} is ${String(value)} now: rewrite this justification, which said: ${old}`;
}

/** The edits that bring one existing entry to the recorded hints, and the rewrites they mark. */
function entryEdits(
  tool: string,
  entry: JustificationEntry,
  hints: Record<JustifiedHint, DeclaredHint>,
  rewrite: JustificationsWrite['rewrite'],
): JsonEdit[] {
  const edits: JsonEdit[] = [];
  for (const [hint, key] of JUSTIFIED) {
    const [value, old] = [hints[hint], entry.annotations[hint]];
    const text = entry.justifications[key];
    const at = (k: string) => ['tools', tool, k, k === 'annotations' ? hint : key];
    if (old !== value) edits.push({ path: at('annotations'), value });
    if (text === undefined || (old !== value && text === placeholderOf(hint, old ?? null)))
      edits.push({ path: at('justifications'), value: placeholderOf(hint, value) });
    else if (old !== value && old !== undefined && !isPlaceholder(text)) {
      // The text argued for the old value: kept inside the mark, for its author to rewrite.
      edits.push({ path: at('justifications'), value: rewritePlaceholder(hint, value, text) });
      rewrite.push({ tool, hint, key, value });
    }
  }
  return edits;
}

/**
 * The justifications file brought to the class list's hints: a new file, or `existing` edited
 * in place (a missing entry added, a changed hint set, each justification a person wrote kept
 * byte for byte, save one whose hint changed, which is marked to rewrite with its old text in the
 * mark). Every other byte stays; a second run changes nothing. A file that does not parse is an
 * AuditError (nothing is written). jsonc-parser must be loaded (loadJsonText) for an existing file.
 */
export function writeJustifications(
  existing: string | undefined,
  wanted: WantedHints,
  path: string,
): JustificationsWrite {
  const result: JustificationsWrite = { text: '', added: [], rewrite: [], orphaned: [] };
  if (existing === undefined) {
    const tools = Object.fromEntries([...wanted].map(([tool, h]) => [tool, newEntry(h)]));
    result.added = [...wanted.keys()];
    const file = { $schema: JUSTIFICATIONS_SCHEMA, schema_version: 1, tools };
    result.text = `${reviewedJson(file, 2)}\n`;
    return result;
  }
  const entries = parseJustifications(existing, path);
  const data = parseJsonText(existing, path, UNREAD).data as Record<string, unknown>;
  const edits: JsonEdit[] = [];
  if (data.$schema === undefined) edits.push({ path: ['$schema'], value: JUSTIFICATIONS_SCHEMA });
  if (data.schema_version === undefined) edits.push({ path: ['schema_version'], value: 1 });
  for (const [tool, hints] of wanted) {
    const entry = entries.get(tool);
    if (entry) edits.push(...entryEdits(tool, entry, hints, result.rewrite));
    else {
      edits.push({ path: ['tools', tool], value: newEntry(hints) });
      result.added.push(tool);
    }
  }
  result.orphaned = [...entries.keys()].filter((tool) => !wanted.has(tool));
  result.text = applyJsonEdits(existing, edits);
  return result;
}

/** The justifications file a check reads (the openai policy on). */
export interface JustificationsInput {
  file: string;
  /** The file's text as the PR has it; undefined when it has none. */
  text?: string;
  /** An option or the config names the file: it must be there. */
  named: boolean;
  /** The base commit's file (its text, null for none) and the base's label; none without a base. */
  base?: Promise<{ text: string | null; label: string } | undefined>;
}

/** One live tool, for the comparison: its three hints as the server declares them now. */
export interface LiveHints {
  tool: string;
  hints: Record<JustifiedHint, DeclaredHint>;
}

/** A hint whose justification describes another value than the server's now. */
export interface StaleHint {
  hint: JustifiedHint;
  key: JustificationKey;
  /** The value the file declares (or the base's file, when the PR edited only the hint). */
  claimed: DeclaredHint | undefined;
  live: DeclaredHint;
  /** The PR set the file's hint to the live value but left the base's justification as it was. */
  unrewritten?: true;
}

/**
 * The hints of one tool whose justification is now false: the file declares another value than
 * the server; or the base commit's file declared another value and the PR's keeps the base's
 * justification byte for byte (a hint edited to match, the text describing the old behaviour).
 */
export function staleHints(
  entry: JustificationEntry,
  live: Record<JustifiedHint, DeclaredHint>,
  base?: JustificationEntry,
): StaleHint[] {
  const out: StaleHint[] = [];
  for (const [hint, key] of JUSTIFIED) {
    const claimed = entry.annotations[hint];
    if (claimed !== undefined && claimed !== live[hint]) {
      out.push({ hint, key, claimed, live: live[hint] });
      continue;
    }
    const before = base?.annotations[hint];
    const text = entry.justifications[key];
    if (
      before !== undefined &&
      before !== live[hint] &&
      !isPlaceholder(text) &&
      text === base?.justifications[key]
    )
      out.push({ hint, key, claimed: before, live: live[hint], unrewritten: true });
  }
  return out;
}

/** Says a declared value as the file writes it: `true`, `false`, `null`, or absent. */
export function declaredText(value: DeclaredHint | undefined): string {
  return value === undefined ? 'absent' : String(value);
}
