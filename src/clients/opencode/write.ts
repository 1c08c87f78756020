import { isDeepStrictEqual } from 'node:util';
import type { Node } from 'jsonc-parser';
import { expectedDecision, type ClassDecisions, type ClientTool } from '../client.js';
import { indentUnit, lineIndent } from '../../core/jsontext.js';
import { parseJsonc } from '../jsonc.js';
import { decidingRule, opencodeName, readOpencode, type Action } from './model.js';

/*
 * The class list's rules as opencode permission keys: one exact key (<server>_<tool>) a recorded
 * tool, "allow", "ask" or "deny" from its class. opencode weighs the keys in order and the last
 * that matches decides, so the class list's keys go after every other key of the object: a broad
 * key already there ("*", "notes_*") then decides only the tools the list does not record, and
 * the list's "deny" and "ask" survive it. A class-list key already in the file is moved there (its
 * old place could be before a broad key). The text is edited where it stands, comments kept, and
 * parsed back and checked before it is returned. Pure.
 */

interface Edit {
  start: number;
  end: number;
  text: string;
}

const FIX =
  'Fix that line: the auditor will not read or overwrite an opencode config it cannot parse.';

/** A member's key (a member is a property node: key, value), and where a node ends. */
const keyOf = (member: Node) => member.children?.[0]?.value as string;
const endOf = (node: Node) => node.offset + node.length;

/** The edit that takes a member out: its whole lines when it has them to itself, and one comma. */
function removal(json: string, start: number, end: number, last: boolean): Edit {
  let from = start;
  let to = end;
  let after = to;
  while (/[ \t]/.test(json[after] as string)) after++;
  if (json[after] === ',') to = after + 1;
  else if (last) {
    // The last member: the comma before it goes instead.
    let before = from - 1;
    while (/\s/.test(json[before] as string)) before--;
    if (json[before] === ',') from = before;
  }
  const lineStart = json.lastIndexOf('\n', start - 1) + 1;
  const rest = /^[ \t]*(\r?\n)/.exec(json.slice(to));
  if (from === start && !json.slice(lineStart, start).trim() && rest) {
    from = lineStart;
    to += rest[0].length;
  }
  return { start: from, end: to, text: '' };
}

/** `"key": "value"` lines for the class list's keys, at `indent`. */
const members = (keys: [string, Action][], indent: string, eol: string): string =>
  keys.map(([k, v]) => `${indent}${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(`,${eol}`);

/** The edits that put `keys` last in `object`, moving any already there. */
function objectEdits(json: string, object: Node, keys: [string, Action][], eol: string): Edit[] {
  const unit = indentUnit(json);
  const own = object.children ?? [];
  const moved = new Set(keys.map(([k]) => k));
  const kept = own.filter((m) => !moved.has(keyOf(m)));
  const edits = own
    .filter((m) => moved.has(keyOf(m)))
    .map((m) => removal(json, m.offset, endOf(m), m === own.at(-1) && !kept.length));
  const lastKept = kept.at(-1);
  if (lastKept) {
    const indent = lineIndent(json, lastKept.offset);
    const at = endOf(lastKept);
    edits.push({ start: at, end: at, text: `,${eol}${members(keys, indent, eol)}` });
  } else {
    const indent = lineIndent(json, object.offset);
    edits.push({
      start: object.offset + 1,
      end: object.offset + 1,
      // Every member was the list's and goes: what followed the last one closes the object.
      text: `${eol}${members(keys, indent + unit, eol)}${own.length ? '' : `${eol}${indent}`}`,
    });
  }
  return edits;
}

/** The edits that write `keys` into a file with no permission object (none, or a string). */
function newPermission(
  json: string,
  root: Node,
  existing: Node | undefined,
  keys: [string, Action][],
  eol: string,
): Edit[] {
  const unit = indentUnit(json);
  if (existing) {
    // permission: "<action>" is the action of every tool, as a first "*" key.
    const indent = lineIndent(json, (existing.parent as Node).offset);
    const body = members([['*', existing.value as Action], ...keys], indent + unit, eol);
    const [start, end] = [existing.offset, endOf(existing)];
    return [{ start, end, text: `{${eol}${body}${eol}${indent}}` }];
  }
  const last = root.children?.at(-1);
  const indent = last ? lineIndent(json, last.offset) : unit;
  const value = `{${eol}${members(keys, indent + unit, eol)}${eol}${indent}}`;
  const member = `${indent}"permission": ${value}`;
  if (last) return [{ start: endOf(last), end: endOf(last), text: `,${eol}${member}` }];
  return [{ start: root.offset + 1, end: root.offset + 1, text: `${eol}${member}${eol}` }];
}

/**
 * `existing` (the file's text, or undefined when there is none) with the class list's key for
 * every tool last in `permission`, each from its expected decision; every other byte kept. Throws
 * AuditError when the text does not parse.
 */
export function writeOpencodeRules(
  existing: string | undefined,
  tools: ClientTool[],
  mapping: ClassDecisions,
  file: string,
): string {
  const sorted = [...tools].sort(
    (a, b) => a.server.localeCompare(b.server) || a.tool.localeCompare(b.tool),
  );
  const keys: [string, Action][] = sorted.map((t) => [
    opencodeName(t.server, t.tool),
    expectedDecision(t, mapping),
  ]);
  if (existing === undefined || !existing.trim()) {
    const eol = existing?.includes('\r\n') ? '\r\n' : '\n';
    return `{${eol}  "permission": {${eol}${members(keys, '    ', eol)}${eol}  }${eol}}${eol}`;
  }
  const bom = existing.charCodeAt(0) === 0xfeff ? '\ufeff' : '';
  const { json, data, nodeAt } = parseJsonc(existing, file, FIX);
  const before = readOpencode([{ path: file, text: existing }]);
  const tail = before.rules.slice(-keys.length).map((r) => [r.key, r.action, r.pattern]);
  if (
    isDeepStrictEqual(
      tail,
      keys.map(([k, v]) => [k, v, '*']),
    )
  )
    return existing;
  const eol = json.includes('\r\n') ? '\r\n' : '\n';
  const permission = (data as Record<string, unknown>).permission;
  const edits =
    typeof permission === 'object' && permission !== null
      ? objectEdits(json, nodeAt('permission') as Node, keys, eol)
      : newPermission(json, nodeAt() as Node, nodeAt('permission'), keys, eol);
  // The edits were placed on the blanked text: they go into the file's own text at the same offsets.
  let text = existing.slice(bom.length);
  for (const e of [...edits].sort((a, b) => b.start - a.start))
    text = text.slice(0, e.start) + e.text + text.slice(e.end);
  return checked(bom + text, existing, tools, mapping, file);
}

/** The written text, read back: each tool's decision is its class's and nothing else changed. */
function checked(
  out: string,
  existing: string,
  tools: ClientTool[],
  mapping: ClassDecisions,
  file: string,
): string {
  const state = readOpencode([{ path: file, text: out }]);
  for (const tool of tools) {
    const rule = decidingRule(state.rules, opencodeName(tool.server, tool.tool));
    if (rule?.action !== expectedDecision(tool, mapping))
      throw new Error(`internal: the written ${file} does not decide ${tool.server}/${tool.tool}`);
  }
  // Everything but the list's keys, a string permission read as its "*" key, as before.
  const names = new Set(tools.map((t) => opencodeName(t.server, t.tool)));
  const strip = (text: string) => {
    const data = parseJsonc(text, file, FIX).data as Record<string, unknown>;
    const rules = typeof data.permission === 'string' ? { '*': data.permission } : data.permission;
    const kept = Object.entries((rules ?? {}) as Record<string, unknown>).filter(
      ([k]) => !names.has(k),
    );
    return { ...data, permission: Object.fromEntries(kept) };
  };
  if (!isDeepStrictEqual(strip(out), strip(existing)))
    throw new Error(`internal: writing ${file} changed settings other than the class list’s keys`);
  return out;
}
