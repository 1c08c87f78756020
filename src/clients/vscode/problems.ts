import type { ClientProblem, ClientTool } from '../client.js';
import { ELIGIBLE, eligibleKeys, type VscodeState } from './model.js';

/*
 * Findings about VS Code's committed settings themselves: a machine-scoped setting written in
 * the workspace (VS Code ignores it, so it does not do what its author meant, either way), an
 * eligibleForAutoApproval entry that is not true or false, and one written <server>/<tool> for a
 * recorded server that names none of its recorded tools. Pure.
 */

const shown = (value: unknown): string => JSON.stringify(value) ?? String(value);

/** Every problem of the committed VS Code settings, given the recorded tools. */
export function vscodeProblems(state: VscodeState, tools: ClientTool[]): ClientProblem[] {
  const found: ClientProblem[] = [];
  for (const s of state.ignored)
    found.push({
      kind: 'rule-ignored',
      rule: `"${s.key}": ${shown(s.value)}`,
      why: `VS Code reads ${s.key} only from each user's own settings (machine scope), never from a workspace's, so it neither lets tools run unasked nor stops them`,
      fix: `Remove it from ${s.file}: each user sets it in their user settings, or an organization policy does.`,
      file: s.file,
      line: s.line,
    });
  const servers = new Set(tools.map((t) => t.server));
  for (const e of state.eligible) {
    const where = { file: e.file, line: e.line };
    if (typeof e.value !== 'boolean') {
      found.push({
        kind: 'rule-ignored',
        rule: `"${e.key}": ${shown(e.value)} in ${ELIGIBLE}`,
        why: 'it is not true or false, so it does not restrict the tool',
        fix: 'Write false to make the tool always ask, or remove the entry.',
        ...where,
      });
      continue;
    }
    const slash = e.key.lastIndexOf('/');
    if (slash < 0 || !servers.has(e.key.slice(0, slash))) continue;
    if (!tools.some((t) => eligibleKeys(t).includes(e.key)))
      found.push({
        kind: 'rule-stale',
        rule: `"${e.key}" in ${ELIGIBLE}`,
        why: `no tool the class list records for the ${e.key.slice(0, slash)} server`,
        fix: 'A typo or a removed tool: fix the name, or remove the entry.',
        ...where,
      });
  }
  return found.sort((a, b) => a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0));
}
