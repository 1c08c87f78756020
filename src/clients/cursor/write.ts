import { applyJsonEdits, type JsonEdit } from '../../core/jsontext.js';
import { AuditError } from '../../errors.js';
import { expectedDecision, type ClassDecisions, type ClientTool } from '../client.js';
import { ALLOWLIST, cursorName, entryMatches, readCursor } from './model.js';

/*
 * The class list's rules as Cursor can hold them: .cursor/permissions.json's mcpAllowlist, the
 * only per-tool rule Cursor documents. A tool the list allows (read) gets an exact server:tool
 * entry; a tool it does not (edit, delete) must match no entry, since Cursor asks for every tool
 * left off the list and has no rule to refuse one: an exact entry for it goes, and a broader
 * entry (`notes:*`) that still matches it is refused, naming its line, for a person to narrow.
 * The text is edited where it stands through jsonc-parser, comments kept. Pure.
 */

/**
 * `existing` (.cursor/permissions.json's text, or undefined when there is none) with the class
 * list's entries in mcpAllowlist, every other byte kept. Throws AuditError when the text does not
 * parse, or when an entry the list cannot take out lets an edit or delete tool run unasked.
 */
export function writeCursorRules(
  existing: string | undefined,
  tools: ClientTool[],
  mapping: ClassDecisions,
  file: string,
): string {
  const allowed = tools.filter((t) => expectedDecision(t, mapping) === 'allow');
  const held = tools.filter((t) => expectedDecision(t, mapping) !== 'allow');
  const exact = (ts: ClientTool[]) => [...new Set(ts.map((t) => cursorName(t.server, t.tool)))];
  if (existing === undefined || !existing.trim()) {
    const eol = existing?.includes('\r\n') ? '\r\n' : '\n';
    const text = JSON.stringify({ [ALLOWLIST]: exact(allowed).sort() }, null, 2);
    return `${text.replace(/\n/g, eol)}${eol}`;
  }
  const state = readCursor([{ path: file, text: existing }]);
  const heldNames = new Set(exact(held));
  const out = state.allowlist.filter((e) => heldNames.has(e.entry as string));
  const kept = state.allowlist.filter((e) => !out.includes(e));
  for (const tool of held) {
    const broad = kept.find((e) => entryMatches(e.entry, tool.server, tool.tool));
    if (broad)
      throw new AuditError(
        `${file} line ${broad.line}: the ${ALLOWLIST} entry ${JSON.stringify(broad.entry)} lets ${tool.class} tool ${cursorName(tool.server, tool.tool)} run without asking, and Cursor has no rule that refuses a tool an entry allows.`,
        `Replace it with exact entries for the tools that may run unasked (rules --client cursor writes them for the class list's read tools), then run rules again.`,
      );
  }
  const missing = allowed.filter((t) => !kept.some((e) => entryMatches(e.entry, t.server, t.tool)));
  const edits: JsonEdit[] = out
    .map((e) => e.index)
    .sort((a, b) => b - a)
    .map((index) => ({ path: [ALLOWLIST, index], value: undefined }));
  const added = exact(missing).sort();
  if (state.listing.length)
    edits.push(...added.map((entry) => ({ path: [ALLOWLIST, -1], value: entry })));
  else if (added.length) edits.push({ path: [ALLOWLIST], value: added });
  if (!edits.length) return existing;
  const bom = existing.charCodeAt(0) === 0xfeff ? '\ufeff' : '';
  return bom + applyJsonEdits(existing.slice(bom.length), edits);
}
