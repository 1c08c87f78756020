import * as z from 'zod/v4';
import type { ToolClass } from '../../core/classify.js';
import type { ClassList, ToolRecord } from '../../core/classlist.js';
import { parseJsonText } from '../../core/jsontext.js';
import { AuditError } from '../../errors.js';
import { lazily } from '../../lazy.js';
import { DECISIONS, splitMcpName, type Decision, type SettingsRule } from './permissions.js';
import { removedRules, type RemovedRule } from './removed-rules.js';

/*
 * Claude Code settings files: the permissions the reviewed class list maps to, reading a settings
 * file with the line of every rule, and writing the mapped rules into one while every other byte
 * of it stays as it was.
 */

/** Which decision each recorded tool gets: per tool, else per reach and class, else per class. */
export interface RuleMapping {
  classes: Record<ToolClass, Decision>;
  reach: {
    open: Partial<Record<ToolClass, Decision>>;
    closed: Partial<Record<ToolClass, Decision>>;
  };
  tools: Record<string, Decision>;
}

/** Read tools run, edit tools ask, delete tools are refused. */
export const DEFAULT_MAPPING: RuleMapping = {
  classes: { read: 'allow', edit: 'ask', delete: 'deny' },
  reach: { open: {}, closed: {} },
  tools: {},
};

/** The decision the mapping gives a recorded tool. */
export function mappedDecision(
  mapping: RuleMapping,
  fullName: string,
  record: ToolRecord,
): Decision {
  return (
    mapping.tools[fullName] ??
    mapping.reach[record.reach][record.class] ??
    mapping.classes[record.class]
  );
}

// Built on first use: most runs check no Claude Code settings (see lazy.ts).
const mappingSchema = lazily(() => {
  const decision = z.enum(DECISIONS);
  const perClass = z.strictObject({
    read: decision.optional(),
    edit: decision.optional(),
    delete: decision.optional(),
  });
  return z.strictObject({
    read: decision.optional(),
    edit: decision.optional(),
    delete: decision.optional(),
    open: perClass.optional(),
    closed: perClass.optional(),
    tools: z.record(z.string().startsWith('mcp__'), decision).optional(),
  });
});

/** The config file's `clientRules` (see the README), over the default mapping. */
export function parseMapping(raw: unknown, path: string): RuleMapping {
  if (raw === undefined || raw === null) return DEFAULT_MAPPING;
  const parsed = mappingSchema().safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AuditError(
      `The config file ${path} has a bad value at clientRules${issue?.path.length ? `.${issue.path.join('.')}` : ''}: ${issue?.message}.`,
      'clientRules takes read/edit/delete: allow|ask|deny, open: and closed: with the same keys, and tools: {mcp__<server>__<tool>: allow|ask|deny}.',
    );
  }
  const m = parsed.data;
  const strip = (o: Partial<Record<ToolClass, Decision | undefined>> | undefined) =>
    Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined)) as Partial<
      Record<ToolClass, Decision>
    >;
  return {
    classes: {
      read: m.read ?? DEFAULT_MAPPING.classes.read,
      edit: m.edit ?? DEFAULT_MAPPING.classes.edit,
      delete: m.delete ?? DEFAULT_MAPPING.classes.delete,
    },
    reach: { open: strip(m.open), closed: strip(m.closed) },
    tools: { ...m.tools },
  };
}

export interface Permissions {
  allow: string[];
  ask: string[];
  deny: string[];
}

/** One rule per recorded tool, by full name, each list sorted: the same list gives the same text. */
export function permissionsFor(list: ClassList, mapping: RuleMapping): Permissions {
  const out: Permissions = { allow: [], ask: [], deny: [] };
  for (const [fullName, record] of list.tools)
    out[mappedDecision(mapping, fullName, record)].push(fullName);
  for (const key of DECISIONS) out[key].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return out;
}

/** The servers a class list records, as the server part of their rules. */
export function serversOf(list: ClassList): Set<string> {
  return new Set([...list.tools.values()].map((r) => r.server));
}

/** Where one JSON value sits in the text. */
export interface Span {
  path: (string | number)[];
  start: number;
  end: number;
  line: number;
}

/**
 * The spans of the values at most `depth` deep in valid JSON text, found without recursion (a
 * deeply nested file cannot overflow the stack). Only what a settings file's permissions need.
 */
export function scanSpans(text: string, depth: number): Span[] {
  interface Frame {
    path: (string | number)[];
    start: number;
    line: number;
    object: boolean;
    key?: string;
    index: number;
    expectKey: boolean;
  }
  const spans: Span[] = [];
  const stack: Frame[] = [];
  let line = 1;
  const pathHere = (): (string | number)[] | undefined => {
    const top = stack.at(-1);
    if (!top) return [];
    return [...top.path, top.object ? (top.key as string) : top.index];
  };
  const record = (
    path: (string | number)[] | undefined,
    start: number,
    end: number,
    at: number,
  ) => {
    if (path && path.length <= depth) spans.push({ path, start, end, line: at });
  };
  let i = 0;
  while (i < text.length) {
    const char = text[i] as string;
    if (char === '\n') line++;
    if (char === '{' || char === '[') {
      const path = pathHere() ?? [];
      stack.push({ path, start: i, line, object: char === '{', index: 0, expectKey: char === '{' });
      i++;
    } else if (char === '}' || char === ']') {
      const frame = stack.pop() as Frame;
      record(frame.path, frame.start, i + 1, frame.line);
      i++;
    } else if (char === ',') {
      const top = stack.at(-1);
      if (top?.object) top.expectKey = true;
      else if (top) top.index++;
      i++;
    } else if (char === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const top = stack.at(-1);
      if (top?.object && top.expectKey) {
        top.key = JSON.parse(text.slice(i, j + 1)) as string;
        top.expectKey = false;
      } else record(pathHere(), i, j + 1, line);
      i = j + 1;
    } else if (/[-0-9tfn]/.test(char)) {
      const start = i;
      while (i < text.length && !/[\s,\]}]/.test(text[i] as string)) i++;
      record(pathHere(), start, i, line);
    } else i++;
  }
  return spans;
}

/**
 * The line of the value at a path, looked up in a map built once (a file of many rules must not
 * cost rules x spans); line 1 for a path not found.
 */
export function lineFinder(spans: Span[]): (...path: (string | number)[]) => number {
  const lines = new Map<string, number>();
  for (const span of spans) {
    const key = JSON.stringify(span.path);
    if (!lines.has(key)) lines.set(key, span.line);
  }
  return (...path) => lines.get(JSON.stringify(path)) ?? 1;
}

/** A settings file as read: its text and every rule of its permissions lists, with lines. */
export interface SettingsFile {
  path: string;
  text: string;
  rules: SettingsRule[];
}

const BOM = '\ufeff';

/**
 * Reads a settings file's permissions. A file that is not JSON, `permissions` that is not an
 * object, a list that is not an array or a rule that is not a string is an AuditError naming the
 * file and line: such a file is never overwritten.
 */
export function parseSettings(text: string, path: string): SettingsFile {
  const { json, data } = parseJsonText(
    text,
    `The settings file ${path}`,
    'Fix that line; the auditor will not read or overwrite a settings file it cannot parse.',
  );
  const lineOf = lineFinder(scanSpans(json, 3));
  const bad = (what: string, line: number) =>
    new AuditError(
      `The settings file ${path} ${what} (line ${line}).`,
      'Claude Code reads {"permissions": {"allow": [...], "ask": [...], "deny": [...]}} with a string per rule; fix it by hand, the auditor will not overwrite it.',
    );
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw bad('is not a JSON object', lineOf());
  const rules: SettingsRule[] = [];
  if (!Object.hasOwn(data, 'permissions')) return { path, text, rules };
  const permissions = (data as Record<string, unknown>).permissions;
  if (typeof permissions !== 'object' || permissions === null || Array.isArray(permissions))
    throw bad('has "permissions" that is not an object', lineOf('permissions'));
  for (const list of DECISIONS) {
    if (!Object.hasOwn(permissions, list)) continue;
    const entries = (permissions as Record<string, unknown>)[list];
    if (!Array.isArray(entries))
      throw bad(`has permissions.${list} that is not a list`, lineOf('permissions', list));
    entries.forEach((rule: unknown, index) => {
      if (typeof rule !== 'string')
        throw bad(
          `has permissions.${list}[${index}] that is not a string: ${JSON.stringify(rule)?.slice(0, 60)}`,
          lineOf('permissions', list, index),
        );
      rules.push({ list, rule, file: path, line: lineOf('permissions', list, index) });
    });
  }
  return { path, text, rules };
}

/** Whether a rule belongs to one of these servers (any rule of theirs, parentheses and all). */
function ruleOfServers(rule: string, servers: Set<string>): boolean {
  const parts = splitMcpName(rule.split('(')[0] as string);
  return parts !== undefined && servers.has(parts.server);
}

/** The indent unit of a file: a tab, or the smallest run of leading spaces; two spaces if none. */
function indentUnit(text: string): string {
  let unit: string | undefined;
  for (const m of text.matchAll(/\n([ \t]+)\S/g)) {
    const lead = m[1] as string;
    if (lead.startsWith('\t')) return '\t';
    if (unit === undefined || lead.length < unit.length) unit = lead;
  }
  return unit ?? '  ';
}

/** The leading whitespace of the line `offset` is on. */
function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))?.[0] ?? '';
}

/** How a settings file is laid out, so inserted text looks like the text around it. */
interface Layout {
  /** The text without its byte order mark. */
  text: string;
  spans: Span[];
  unit: string;
  eol: string;
}

/** An edit of the text: `start` to `end` replaced with `text`. */
interface Edit {
  start: number;
  end: number;
  text: string;
}

/** A member to insert into an object: its key, and its value rendered at an indent. */
type Member = [key: string, value: (indent: string) => string];

function renderList(items: string[], indent: string, layout: Layout): string {
  if (!items.length) return '[]';
  const { unit, eol } = layout;
  return `[${eol}${items.map((r) => `${indent}${unit}${JSON.stringify(r)}`).join(`,${eol}`)}${eol}${indent}]`;
}

function renderObject(members: Member[], indent: string, layout: Layout): string {
  const { unit, eol } = layout;
  const inner = members
    .map(([key, value]) => `${indent}${unit}${JSON.stringify(key)}: ${value(indent + unit)}`)
    .join(`,${eol}`);
  return `{${eol}${inner}${eol}${indent}}`;
}

function spanAt(spans: Span[], ...path: string[]): Span | undefined {
  return spans.find((s) => s.path.length === path.length && s.path.every((p, i) => p === path[i]));
}

/**
 * The permissions lists whose rules change: each one's rules of `servers` replaced by `next`'s,
 * where the first of them stood (else at the end). A list that would be created empty is left out.
 */
function changedLists(
  permissions: Record<string, string[]> | undefined,
  next: Permissions,
  servers: Set<string>,
): [Decision, string[]][] {
  const lists: [Decision, string[]][] = [];
  // New lists are written in the order people read them.
  for (const list of ['allow', 'ask', 'deny'] as const) {
    const old = permissions?.[list] ?? [];
    const kept = old.filter((r) => !ruleOfServers(r, servers));
    const first = old.findIndex((r) => ruleOfServers(r, servers));
    const at =
      first < 0
        ? kept.length
        : old.slice(0, first).filter((r) => !ruleOfServers(r, servers)).length;
    const merged = [...kept.slice(0, at), ...next[list], ...kept.slice(at)];
    const present = permissions !== undefined && Object.hasOwn(permissions, list);
    if (merged.length === old.length && merged.every((r, i) => r === old[i])) continue;
    if (!present && !merged.length) continue;
    lists.push([list, merged]);
  }
  return lists;
}

/** Adds members to an object: after its last member, in that member's indent. */
function insertMembers(object: Span, members: Member[], layout: Layout): Edit[] {
  const { text, spans, eol } = layout;
  const last = spans
    .filter(
      (s) =>
        s.path.length === object.path.length + 1 && object.path.every((p, i) => p === s.path[i]),
    )
    .at(-1);
  if (!last)
    return [
      {
        start: object.start,
        end: object.end,
        text: renderObject(members, lineIndent(text, object.start), layout),
      },
    ];
  const indent = lineIndent(text, last.start);
  return members.map(([key, value]) => ({
    start: last.end,
    end: last.end,
    text: `,${eol}${indent}${JSON.stringify(key)}: ${value(indent)}`,
  }));
}

/** The edits that write `lists`: a list in place where it is, else added to permissions. */
function listEdits(lists: [Decision, string[]][], layout: Layout): Edit[] {
  const { text, spans } = layout;
  const edits: Edit[] = [];
  const added: Member[] = [];
  for (const [list, items] of lists) {
    const span = spanAt(spans, 'permissions', list);
    if (span)
      edits.push({
        start: span.start,
        end: span.end,
        text: renderList(items, lineIndent(text, span.start), layout),
      });
    else added.push([list, (indent) => renderList(items, indent, layout)]);
  }
  if (!added.length) return edits;
  const permissions = spanAt(spans, 'permissions');
  const root = spans.find((s) => s.path.length === 0) as Span;
  const members: Member[] = permissions
    ? added
    : [['permissions', (indent) => renderObject(added, indent, layout)]];
  return [...edits, ...insertMembers(permissions ?? root, members, layout)];
}

/** Applies edits from the end of the text backwards, so earlier offsets stay right. */
function applyEdits(text: string, edits: Edit[]): string {
  // Several members inserted at one offset keep their list order.
  const ordered = edits.map((e, n) => ({ ...e, n })).sort((a, b) => b.start - a.start || b.n - a.n);
  let out = text;
  for (const edit of ordered) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}

/**
 * Refuses a file that holds a key of the path the write edits twice (`permissions`, or one of
 * its lists): JSON keeps the last, so an edit of the first would say "Wrote" and change nothing
 * Claude Code reads.
 */
function refuseDuplicateKeys(spans: Span[], path: string): void {
  for (const key of [['permissions'], ...DECISIONS.map((d) => ['permissions', d])]) {
    const lines = spans
      .filter((s) => s.path.length === key.length && s.path.every((p, i) => p === key[i]))
      .map((s) => s.line);
    if (lines.length < 2) continue;
    const name = key.join('.');
    throw new AuditError(
      `The settings file ${path} has "${name}" ${lines.length} times (lines ${lines.join(', ')}): JSON keeps only the last, so the rules of the others count for nothing.`,
      `Merge them into one "${name}" by hand (keep the rules that should count), then run rules --write again; the auditor will not edit a file whose rules it cannot place.`,
    );
  }
}

/** What a write of the mapped rules makes of a settings file. */
export interface MergedSettings {
  text: string;
  /** The file's rules that the write takes out of their list, with why (file order). */
  removed: RemovedRule[];
}

/**
 * The settings text with each permissions list's rules of `servers` replaced by `next`'s, put
 * where the first of them stood (else at the end), and the rules that go. Every other key and
 * rule keeps its place and its bytes; indent, line ends, final newline and a byte order mark stay
 * as they were. A list whose rules do not change is not touched at all, so a second run changes
 * nothing. A file with `permissions` or one of its lists twice is an AuditError.
 */
export function mergeSettings(
  existing: SettingsFile | undefined,
  next: Permissions,
  servers: Set<string>,
): MergedSettings {
  if (!existing)
    return { text: `${JSON.stringify({ permissions: next }, null, 2)}\n`, removed: [] };
  const bom = existing.text.startsWith(BOM) ? BOM : '';
  const text = bom ? existing.text.slice(1) : existing.text;
  const spans = scanSpans(text, 2);
  refuseDuplicateKeys(spans, existing.path);
  const data = JSON.parse(text) as { permissions?: Record<string, string[]> };
  const layout: Layout = {
    text,
    spans,
    unit: indentUnit(text),
    eol: text.includes('\r\n') ? '\r\n' : '\n',
  };
  const edits = listEdits(changedLists(data.permissions, next, servers), layout);
  const removed = removedRules(existing.rules, next, servers).sort((a, b) => a.line - b.line);
  return { text: bom + applyEdits(text, edits), removed };
}

/** The text of {@link mergeSettings}. */
export function mergePermissions(
  existing: SettingsFile | undefined,
  next: Permissions,
  servers: Set<string>,
): string {
  return mergeSettings(existing, next, servers).text;
}
