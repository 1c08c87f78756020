// The one wording of the client rules (core/rules/rule-*.ts, settings-ignored.ts) for every
// client: what decided a tool, where, and a problem's subject, each naming the file and line.
// Pure: strings from the plain data of a ClientContext (core/rules/rule.ts).
import type {
  ClientContext,
  ClientDecision,
  ClientProblem,
  ClientProblemKind,
  ClientVerdict,
  FindingOf,
  Raise,
} from './rules/rule.js';

/** A rule as written, quoted, cut at 120 characters. */
export const quotedRule = (rule: string): string =>
  JSON.stringify(rule.length > 120 ? `${rule.slice(0, 119)}…` : rule);

/** ` in FILE line N`, or nothing when the verdict names no file. */
function where(v: { file?: string; line?: number }): string {
  if (v.file === undefined) return '';
  return ` in ${v.file}${v.line !== undefined ? ` line ${v.line}` : ''}`;
}

/** Where a finding points: the file and line, when both are known. */
export const locationOf = (v: { file?: string; line?: number }) =>
  v.file !== undefined && v.line !== undefined ? { location: { file: v.file, line: v.line } } : {};

/** What decided: the rule as written and where, else what the client did on its own. */
export function verdictCause(v: ClientVerdict): string {
  if (v.rule !== undefined)
    return `${quotedRule(v.rule)}${where(v)}${v.byClient ? ` (${v.byClient})` : ''}`;
  return `${v.byClient ?? 'its default'}${where(v)}`;
}

/** What the client does, in a few words. */
export const DOES: Record<ClientDecision, string> = {
  allow: 'runs it without asking',
  ask: 'asks each time',
  deny: 'refuses it',
  hidden: 'does not offer it',
};

/** A problem's location: its file and line (line 1 when it names none). */
export const problemLocation = (p: ClientProblem) => ({
  location: { file: p.file, line: p.line ?? 1 },
});

/**
 * rule-allows-delete's and rule-allows-edit's check: a recorded tool of `cls` the client runs
 * without asking, where the class list maps it to ask or deny.
 */
export function allowsUnasked(
  cls: 'delete' | 'edit',
  { client, tool, rulesCommand }: ClientContext,
  raise: Raise,
): FindingOf[] {
  if (!tool || tool.class !== cls || tool.verdict.decision !== 'allow' || tool.expected === 'allow')
    return [];
  return [
    raise(
      tool.name,
      `${cls} tool ${tool.named}: in ${client.label}, ${verdictCause(tool.verdict)} lets it run without asking${tool.assumes ? ` (${tool.assumes})` : ''}; the class list maps it to ${tool.expected}.`,
      { fix: `Run ${rulesCommand}, or fix the rule by hand.`, ...locationOf(tool.verdict) },
    ),
  ];
}

/**
 * The check of a rule raised from the client's problems of its kind: `LABEL: RULE in FILE line N
 * VERB WHY.` (the file and line alone for a whole file), located on that line.
 */
export function problemCheck(kind: ClientProblemKind, verb: string) {
  return ({ client, problem: p }: ClientContext, raise: Raise): FindingOf[] => {
    if (p?.kind !== kind) return [];
    const place = `${p.file} line ${p.line ?? 1}`;
    const subject = p.rule !== undefined ? `${p.rule} in ${place}` : place;
    return [
      raise(undefined, `${client.label}: ${subject} ${verb} ${p.why}.`, {
        fix: p.fix,
        ...problemLocation(p),
      }),
    ];
  };
}
