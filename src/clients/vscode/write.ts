import { applyJsonEdits, type JsonEdit } from '../../core/jsontext.js';
import { expectedDecision, type ClassDecisions, type ClientTool } from '../client.js';
import { ELIGIBLE, eligibleEntry, eligibleKeys, readVscode } from './model.js';

/*
 * The class list's rules as VS Code can hold them in a committed file: the one per-tool setting a
 * workspace may set, chat.tools.eligibleForAutoApproval in .vscode/settings.json. A tool the list
 * does not allow (edit, delete) gets `"<tool>": false`, so VS Code asks every time and never
 * offers to approve it for good; VS Code has no committed way to refuse a tool, so delete asks
 * too. A tool the list allows gets no entry (an entry of false the file has for it goes): VS Code
 * runs it unasked only when it declares readOnlyHint: true. Keys are the tools' own names (the
 * reference names VS Code looks up); a name two recorded tools share is false when either needs
 * it. The text is edited where it stands through jsonc-parser, comments kept. Pure.
 */

/** The names to set false, and the names to take out, from the tools and the mapping. */
function wanted(tools: ClientTool[], mapping: ClassDecisions) {
  const restrict = new Set(
    tools.filter((t) => expectedDecision(t, mapping) !== 'allow').map((t) => t.tool),
  );
  const free = tools.filter((t) => expectedDecision(t, mapping) === 'allow');
  return { restrict: [...restrict].sort(), free };
}

/**
 * `existing` (.vscode/settings.json's text, or undefined when there is none) with each recorded
 * tool's eligibleForAutoApproval entry as the mapping wants it, every other byte kept. Throws
 * AuditError when the text does not parse.
 */
export function writeVscodeRules(
  existing: string | undefined,
  tools: ClientTool[],
  mapping: ClassDecisions,
  file: string,
): string {
  const { restrict, free } = wanted(tools, mapping);
  if (existing === undefined || !existing.trim()) {
    const entries = Object.fromEntries(restrict.map((name) => [name, false]));
    const eol = existing?.includes('\r\n') ? '\r\n' : '\n';
    return `${JSON.stringify({ [ELIGIBLE]: entries }, null, 2).replace(/\n/g, eol)}${eol}`;
  }
  const state = readVscode([{ path: file, text: existing }]);
  const edits: JsonEdit[] = [];
  for (const name of restrict)
    if (state.eligible.find((e) => e.key === name)?.value !== false)
      edits.push({ path: [ELIGIBLE, name], value: false });
  const gone = new Set(
    free
      .flatMap((t) => eligibleKeys(t))
      .filter((key) => !restrict.includes(key))
      .filter((key) => state.eligible.some((e) => e.key === key && e.value === false)),
  );
  for (const key of [...gone].sort()) edits.push({ path: [ELIGIBLE, key], value: undefined });
  if (!edits.length) return existing;
  const bom = existing.charCodeAt(0) === 0xfeff ? '\ufeff' : '';
  const out = bom + applyJsonEdits(existing.slice(bom.length), edits);
  return checked(out, tools, mapping, file);
}

/** The written text, read back: every tool the list does not allow has an entry of false. */
function checked(out: string, tools: ClientTool[], mapping: ClassDecisions, file: string): string {
  const state = readVscode([{ path: file, text: out }]);
  for (const tool of tools)
    if (expectedDecision(tool, mapping) !== 'allow' && eligibleEntry(state, tool)?.value !== false)
      throw new Error(
        `internal: the written ${file} does not restrict ${tool.server}/${tool.tool}`,
      );
  return out;
}
