import { reviewedJson } from '../../escape.js';
import { compareText } from '../../core/order.js';
import * as z from 'zod/v4';
import type { ToolClass } from '../../core/classify.js';
import type { ClassList, ToolRecord } from '../../core/classlist.js';
import type { Edit, Node } from 'jsonc-parser';
import { indentUnit, jsonc, lineIndent, parseJsonText } from '../../core/jsontext.js';
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
  for (const key of DECISIONS) out[key].sort(compareText);
  return out;
}

/** The servers a class list records, as the server part of their rules. */
export function serversOf(list: ClassList): Set<string> {
  return new Set([...list.tools.values()].map((r) => r.server));
}

/** A settings file as read: its text and every rule of its permissions lists, with lines. */
export interface SettingsFile {
  path: string;
  text: string;
  rules: SettingsRule[];
}

const BOM = '\ufeff';
const UNPARSED =
  'Fix that line; the auditor will not read or overwrite a settings file it cannot parse.';

/**
 * Reads a settings file's permissions. A file that is not JSON, `permissions` that is not an
 * object, a list that is not an array or a rule that is not a string is an AuditError naming the
 * file and line: such a file is never overwritten.
 */
export function parseSettings(text: string, path: string): SettingsFile {
  const { data, lineOf } = parseJsonText(text, `The settings file ${path}`, UNPARSED, {
    lines: true,
  });
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

/** How a settings file is laid out, so inserted text looks like the text around it. */
interface Layout {
  /** The text without its byte order mark. */
  text: string;
  unit: string;
  eol: string;
}

/** A member to insert into an object: its key, and its value rendered at an indent. */
type Member = [key: string, value: (indent: string) => string];

function renderList(items: string[], indent: string, layout: Layout): string {
  if (!items.length) return '[]';
  const { unit, eol } = layout;
  return `[${eol}${items.map((r) => `${indent}${unit}${reviewedJson(r)}`).join(`,${eol}`)}${eol}${indent}]`;
}

function renderObject(members: Member[], indent: string, layout: Layout): string {
  const { unit, eol } = layout;
  const inner = members
    .map(([key, value]) => `${indent}${unit}${reviewedJson(key)}: ${value(indent + unit)}`)
    .join(`,${eol}`);
  return `{${eol}${inner}${eol}${indent}}`;
}

/** The values of an object's members named `key`, in file order (JSON keeps the last). */
function membersNamed(object: Node | undefined, key: string): Node[] {
  return (object?.children ?? []).flatMap((p) =>
    p.children?.[0]?.value === key && p.children[1] ? [p.children[1]] : [],
  );
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
function insertMembers(object: Node, members: Member[], layout: Layout): Edit[] {
  const { text, eol } = layout;
  // The value of the last member (a member is a property node: key, value).
  const last = object.children?.at(-1)?.children?.[1];
  if (!last)
    return [
      {
        offset: object.offset,
        length: object.length,
        content: renderObject(members, lineIndent(text, object.offset), layout),
      },
    ];
  const indent = lineIndent(text, last.offset);
  return members.map(([key, value]) => ({
    offset: last.offset + last.length,
    length: 0,
    content: `,${eol}${indent}${reviewedJson(key)}: ${value(indent)}`,
  }));
}

/** The edits that write `lists`: a list in place where it is, else added to permissions. */
function listEdits(lists: [Decision, string[]][], root: Node, layout: Layout): Edit[] {
  const { text } = layout;
  const edits: Edit[] = [];
  const added: Member[] = [];
  const permissions = membersNamed(root, 'permissions')[0];
  for (const [list, items] of lists) {
    const node = membersNamed(permissions, list)[0];
    if (node)
      edits.push({
        offset: node.offset,
        length: node.length,
        content: renderList(items, lineIndent(text, node.offset), layout),
      });
    else added.push([list, (indent) => renderList(items, indent, layout)]);
  }
  if (!added.length) return edits;
  const members: Member[] = permissions
    ? added
    : [['permissions', (indent) => renderObject(added, indent, layout)]];
  return [...edits, ...insertMembers(permissions ?? root, members, layout)];
}

/**
 * Refuses a file that holds a key of the path the write edits twice (`permissions`, or one of
 * its lists): JSON keeps the last, so an edit of the first would say "Wrote" and change nothing
 * Claude Code reads.
 */
function refuseDuplicateKeys(root: Node, path: string, lineAt: (offset: number) => number): void {
  const permissions = membersNamed(root, 'permissions');
  for (const [name, nodes] of [
    ['permissions', permissions] as const,
    ...DECISIONS.map(
      (d) => [`permissions.${d}`, permissions.flatMap((p) => membersNamed(p, d))] as const,
    ),
  ]) {
    if (nodes.length < 2) continue;
    const lines = nodes.map((n) => lineAt(n.offset));
    throw new AuditError(
      `The settings file ${path} has "${name}" ${nodes.length} times (lines ${lines.join(', ')}): JSON keeps only the last, so the rules of the others count for nothing.`,
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
  if (!existing) return { text: `${reviewedJson({ permissions: next }, 2)}\n`, removed: [] };
  const bom = existing.text.startsWith(BOM) ? BOM : '';
  const parsed = parseJsonText(existing.text, `The settings file ${existing.path}`, UNPARSED, {
    lines: true,
  });
  const root = parsed.tree();
  refuseDuplicateKeys(root, existing.path, parsed.lineAt);
  const { json: text } = parsed;
  const layout: Layout = {
    text,
    unit: indentUnit(text),
    eol: text.includes('\r\n') ? '\r\n' : '\n',
  };
  const permissions = (parsed.data as { permissions?: Record<string, string[]> }).permissions;
  const edits = listEdits(changedLists(permissions, next, servers), root, layout);
  const removed = removedRules(existing.rules, next, servers).sort((a, b) => a.line - b.line);
  return { text: bom + jsonc().applyEdits(text, edits), removed };
}

/** The text of {@link mergeSettings}. */
export function mergePermissions(
  existing: SettingsFile | undefined,
  next: Permissions,
  servers: Set<string>,
): string {
  return mergeSettings(existing, next, servers).text;
}
