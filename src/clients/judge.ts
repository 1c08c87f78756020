import type { Finding } from '../core/findings.js';
import { runChecks } from '../core/rules.js';
import type { ClientContext } from '../core/rules/rule.js';
import { NPX_COMMAND } from '../version.js';
import { mappedDecision, type RuleMapping } from './claude-code/claude-settings.js';
import type { RecordedHint, ToolRecord } from '../core/classlist.js';
import { HINT_NAMES, type HintName } from '../core/tools.js';
import {
  expectedDecision,
  seenBy,
  type ClassDecisions,
  type Client,
  type ClientTool,
} from './client.js';

/*
 * The check of any client's committed config against the class list, through the Client seam
 * alone: each recorded tool's verdict beside the decision its class maps to, and each of the
 * client's problems with its files, made the plain-data ClientContext of the client phase. The
 * rules of that phase (core/rules/rule-allows-delete, -edit, rule-unset, rule-ignored,
 * rule-stale, rule-shadowed, settings-ignored) raise the findings, one wording for every client.
 */

/** A client the check judges: its row and the state its committed files leave it in. */
export interface JudgedClient {
  client: Client;
  state: unknown;
  /** Listed in the config file (`clients:`) but configured by no committed file: not judged. */
  listedOnly?: true;
  /** The command a fix names, when not rulesCommand(client) (Claude Code's checked settings file). */
  rulesCommand?: string;
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
  /** Its key in the class list (`mcp__<server>__<tool>`). */
  key: string;
}

/** What the check found: findings about one recorded tool (by its server), and about the files. */
export interface ClientCheck {
  toolFindings: { server: string; finding: Finding }[];
  ruleFindings: Finding[];
}

/** The command that writes the client's rules, for a fix. */
export function rulesCommand(client: Client): string {
  return `${NPX_COMMAND} rules --client ${client.id} --write ${client.rulesFile}`;
}

/** Checks one client's committed config against the recorded tools and the class mapping. */
export function judgeClient(
  judged: JudgedClient,
  tools: RecordedClientTool[],
  mapping: ClassDecisions,
): ClientCheck {
  const { client, state } = judged;
  const base = {
    client: { id: client.id, label: client.label },
    rulesCommand: judged.rulesCommand ?? rulesCommand(client),
  };
  let deleteExposed = false;
  const toolFindings = tools.flatMap((tool) => {
    const seen = seenBy(client, tool);
    const verdict = client.decide(state, seen);
    const assumes = verdict.decision === 'allow' ? client.assumes?.(state, verdict) : undefined;
    if (tool.class === 'delete' && verdict.decision !== 'deny' && verdict.decision !== 'hidden')
      deleteExposed = true;
    const context: ClientContext = {
      ...base,
      tool: {
        name: tool.tool,
        named: client.fullName(seen.server, seen.tool),
        class: tool.class,
        expected: expectedDecision(tool, mapping),
        verdict,
        ...(assumes ? { assumes } : {}),
      },
    };
    return runChecks('client', context).map((finding) => ({ server: tool.server, finding }));
  });
  const ruleFindings = client
    .problems(
      state,
      tools.map((t) => seenBy(client, t)),
    )
    .flatMap((problem) => runChecks('client', { ...base, problem, deleteExposed }));
  return { toolFindings, ruleFindings };
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
