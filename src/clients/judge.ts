import { finding, type Finding } from '../core/findings.js';
import { NPX_COMMAND } from '../version.js';
import { mappedDecision, type RuleMapping } from './claude-code/claude-settings.js';
import type { RecordedHint, ToolRecord } from '../core/classlist.js';
import { HINT_NAMES, type HintName } from '../core/tools.js';
import {
  expectedDecision,
  type ClassDecisions,
  type Client,
  type ClientDecision,
  type ClientRuleProblem,
  type ClientTool,
  type ClientVerdict,
} from './client.js';

/*
 * The check of any client's committed config against the class list, through the Client seam
 * alone: each recorded tool's verdict against the decision its class maps to, and the client's
 * own problems with its rules. The finding ids are Claude Code's (rule-allows-delete and -edit,
 * rule-unset, and the problems' rule-ignored, rule-stale, rule-shadowed, settings-ignored), each
 * message naming the client, and the file and line where the decision comes from.
 */

/** A client the check judges: its row and the state its committed files leave it in. */
export interface JudgedClient {
  client: Client;
  state: unknown;
  /** Listed in the config file (`clients:`) but configured by no committed file: not judged. */
  listedOnly?: true;
}

/**
 * What check needs to judge the committed client configs: each client found, and the mapping;
 * `listed`, the clients the config file lists that no committed file configures, whose decisions
 * only the PR comment's per-client notes say (their defaults are no finding of the repository's).
 */
export interface ClientsInput {
  judged: JudgedClient[];
  listed?: JudgedClient[];
  mapping: RuleMapping;
}

/** A recorded tool as the check judges it: the seam's shape, with its class-list key. */
export interface RecordedClientTool extends ClientTool {
  /** Its key in the class list (`mcp__<server>__<tool>`), what messages name it by. */
  key: string;
}

/** What the check found: findings about one recorded tool (by its server), and about the files. */
export interface ClientCheck {
  toolFindings: { server: string; finding: Finding }[];
  ruleFindings: Finding[];
}

const quoted = (rule: string): string =>
  JSON.stringify(rule.length > 120 ? `${rule.slice(0, 119)}…` : rule);

/** ` in FILE line N`, or nothing when the verdict names no file. */
function where(v: { file?: string; line?: number }): string {
  if (v.file === undefined) return '';
  return ` in ${v.file}${v.line !== undefined ? ` line ${v.line}` : ''}`;
}

const locationOf = (v: { file?: string; line?: number }) =>
  v.file !== undefined && v.line !== undefined ? { location: { file: v.file, line: v.line } } : {};

/** What decided: the rule as written and where, else what the client did on its own. */
export function verdictCause(v: ClientVerdict): string {
  if (v.rule !== undefined)
    return `${quoted(v.rule)}${where(v)}${v.byClient ? ` (${v.byClient})` : ''}`;
  return `${v.byClient ?? 'its default'}${where(v)}`;
}

/** What the client does, in a few words. */
export const DOES: Record<ClientDecision, string> = {
  allow: 'runs it without asking',
  ask: 'asks each time',
  deny: 'refuses it',
  hidden: 'does not offer it',
};

/** The command that writes the client's rules, for a fix. */
export function rulesCommand(client: Client): string {
  return `${NPX_COMMAND} rules --client ${client.id} --write ${client.rulesFile}`;
}

/** One recorded tool's findings: run unasked against its class, or decided by no rule. */
function toolFindings(
  client: Client,
  tool: RecordedClientTool,
  verdict: ClientVerdict,
  mapping: ClassDecisions,
): Finding[] {
  const expected = expectedDecision(tool, mapping);
  const fix = `Run ${rulesCommand(client)}, or fix the rule by hand.`;
  const maps = `the class list maps it to ${expected}`;
  if (verdict.decision === 'allow' && tool.class !== 'read' && expected !== 'allow') {
    const id = tool.class === 'delete' ? 'rule-allows-delete' : 'rule-allows-edit';
    return [
      finding(
        id,
        tool.tool,
        `${tool.class} tool ${tool.key}: in ${client.label}, ${verdictCause(verdict)} lets it run without asking; ${maps}.`,
        { fix, ...locationOf(verdict) },
      ),
    ];
  }
  if (verdict.rule !== undefined || verdict.decision === 'allow') return [];
  return [
    finding(
      'rule-unset',
      tool.tool,
      `No rule of ${client.label} decides ${tool.class} tool ${tool.key}: it ${DOES[verdict.decision]} (${verdictCause(verdict)})${verdict.decision !== expected ? `; ${maps}` : ''}.`,
      { fix: `Run ${rulesCommand(client)}.` },
    ),
  ];
}

/** A problem of the client's as a finding: its message names the client. */
function problemFinding(client: Client, p: ClientRuleProblem): Finding {
  const message = p.message.includes(client.label) ? p.message : `${client.label}: ${p.message}`;
  const f = finding(p.id, undefined, message, {
    fix: p.fix,
    location: { file: p.file, line: p.line ?? 1 },
  });
  return p.severity ? { ...f, severity: p.severity } : f;
}

/** Checks one client's committed config against the recorded tools and the class mapping. */
export function judgeClient(
  judged: JudgedClient,
  tools: RecordedClientTool[],
  mapping: ClassDecisions,
): ClientCheck {
  const { client, state } = judged;
  return {
    toolFindings: tools.flatMap((tool) =>
      toolFindings(client, tool, client.decide(state, tool), mapping).map((f) => ({
        server: tool.server,
        finding: f,
      })),
    ),
    ruleFindings: client.problems(state, tools).map((p) => problemFinding(client, p)),
  };
}

/** The hints a tool declares, from what the class list records (`absent` is not declared). */
function declaredOf(hints: Record<HintName, RecordedHint>): ClientTool['declared'] {
  const out: ClientTool['declared'] = {};
  for (const h of HINT_NAMES) if (hints[h] !== 'absent') out[h] = hints[h];
  return out;
}

/** A recorded tool as the seam takes it: its class and hints as reviewed, and its mapping. */
export function recordedTool(
  key: string,
  record: ToolRecord,
  mapping: RuleMapping,
): RecordedClientTool {
  const decision = mappedDecision(mapping, key, record);
  return {
    key,
    server: record.server,
    tool: record.tool,
    class: record.class,
    declared: declaredOf(record.hints),
    ...(decision !== mapping.classes[record.class] ? { decision } : {}),
  };
}
