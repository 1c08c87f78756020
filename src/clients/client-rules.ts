import type { ServerReport } from '../audit.js';
import type { ClassList, ToolRecord } from '../core/classlist.js';
import { mappedDecision, type RuleMapping, type SettingsFile } from './claude-settings.js';
import { finding, type Finding } from '../core/findings.js';
import { NPX_COMMAND } from '../version.js';
import {
  decide,
  ruleShape,
  shapeMatches,
  splitMcpName,
  type Decision,
  type Effective,
  type SettingsRule,
} from './permissions.js';

/*
 * The check of existing Claude Code settings against the reviewed class list: each recorded
 * tool's effective decision under the merged files, and what in them defeats the class list.
 */

/** A tool's effective decision as reports show it (`rule`/`file`/`line` absent when unset). */
export interface ClaudeCodeDecision {
  decision: Decision | 'unset';
  rule?: string;
  file?: string;
  line?: number;
}

export function claudeCodeDecision(effective: Effective): ClaudeCodeDecision {
  const by = effective.by;
  return by
    ? { decision: effective.decision, rule: by.rule, file: by.file, line: by.line }
    : { decision: 'unset' };
}

/** Every rule of the files, in the order given (the first match is the one reports name). */
export function mergedRules(files: SettingsFile[]): SettingsRule[] {
  return files.flatMap((f) => f.rules);
}

export interface RulesCheck {
  /** Findings about one recorded tool, by its full name, with the record. */
  toolFindings: { key: string; record: ToolRecord; finding: Finding }[];
  /** Findings about a rule (skipped, stale, shadowed): located on the rule's line. */
  ruleFindings: Finding[];
}

const quoted = (rule: string): string =>
  JSON.stringify(rule.length > 120 ? `${rule.slice(0, 119)}…` : rule);
const at = (r: SettingsRule): string => `${r.file} line ${r.line}`;
const location = (r: SettingsRule) => ({ location: { file: r.file, line: r.line } });

/**
 * Checks the merged rules of `files` against the class list and the mapping; `writeTarget` is the
 * file a `rules --write` fix would name.
 */
export function checkClientRules(
  list: ClassList,
  files: SettingsFile[],
  mapping: RuleMapping,
  writeTarget: string,
): RulesCheck {
  const rules = mergedRules(files);
  const recorded = [...list.tools];
  const servers = new Set(recorded.map(([, r]) => r.server));
  const toolFindings: RulesCheck['toolFindings'] = [];
  const ruleFindings: Finding[] = [];
  const fix = `Run ${NPX_COMMAND} rules --write ${writeTarget}, or fix the rule by hand.`;
  const decided = new Map<string, Effective>();
  for (const [key, record] of recorded) {
    const effective = decide(rules, key);
    decided.set(key, effective);
    const expected = mappedDecision(mapping, key, record);
    const by = effective.by;
    if (effective.decision === 'allow' && by && expected !== 'allow' && record.class !== 'read') {
      const rule = record.class === 'delete' ? 'rule-allows-delete' : 'rule-allows-edit';
      const broad = by.rule !== key ? ` (a ${ruleKind(by.rule)} rule)` : '';
      toolFindings.push({
        key,
        record,
        finding: finding(
          rule,
          record.tool,
          `${record.class} tool ${key}: ${quoted(by.rule)}${broad} in ${at(by)} allows it, so Claude Code runs it without asking; the class list maps it to ${expected}.`,
          { fix, ...location(by) },
        ),
      });
    }
    if (effective.decision === 'unset')
      toolFindings.push({
        key,
        record,
        finding: finding(
          'rule-unset',
          record.tool,
          `No rule decides ${record.class} tool ${key}: Claude Code asks each time${expected !== 'ask' ? `; the class list maps it to ${expected}` : ''}.`,
          { fix: `Run ${NPX_COMMAND} rules --write ${writeTarget}.` },
        ),
      });
  }
  for (const rule of rules) {
    const shape = ruleShape(rule.rule, rule.list);
    if (shape.kind === 'other') continue;
    if (shape.kind === 'ignored') {
      let meant = shape.meant;
      // An allow glob over server names: the recorded servers it was probably written for.
      if (rule.rule.includes('*') && !rule.rule.includes('(')) {
        const hit = [...servers].filter((s) =>
          shapeMatches({ kind: 'glob', pattern: rule.rule }, `mcp__${s}__x`),
        );
        meant = hit.length ? hit.map((s) => `mcp__${s}`).join('", "') : undefined;
      }
      ruleFindings.push(
        finding(
          'rule-ignored',
          undefined,
          `${rule.list} rule ${quoted(rule.rule)} in ${at(rule)} is skipped: ${shape.why}.`,
          {
            fix: meant
              ? `Probably meant "${meant}": write that instead${rule.rule.includes('(') ? ' (to limit parameter values, use --disallowedTools)' : ''}, or remove the rule.`
              : 'Remove the rule, or write it as mcp__<server> or mcp__<server>__<tool>.',
            ...location(rule),
          },
        ),
      );
      continue;
    }
    const matched = recorded.filter(([key]) => shapeMatches(shape, key)).map(([key]) => key);
    if (!matched.length) {
      const server = shape.kind === 'tool' ? shape.server : undefined;
      const what =
        server !== undefined && !servers.has(server)
          ? `server "${server}", which the class list does not record`
          : 'no tool the class list records';
      ruleFindings.push(
        finding(
          'rule-stale',
          undefined,
          `${rule.list} rule ${quoted(rule.rule)} in ${at(rule)} names ${what}.`,
          {
            fix: 'A typo or a removed tool: fix the name, or remove the rule.',
            ...location(rule),
          },
        ),
      );
      continue;
    }
    if (rule.list !== 'allow') continue;
    const winners = matched.map((key) => decided.get(key)?.by);
    if (winners.every((w) => w !== undefined && w.list !== 'allow')) {
      const first = winners[0] as SettingsRule;
      ruleFindings.push(
        finding(
          'rule-shadowed',
          undefined,
          `allow rule ${quoted(rule.rule)} in ${at(rule)} decides nothing: ${matched.length === 1 ? (matched[0] as string) : `all ${matched.length} tools it matches`} ${matched.length === 1 ? 'is' : 'are'} decided first by ${first.list} rule ${quoted(first.rule)} in ${at(first)}.`,
          {
            fix: 'Claude Code checks deny, then ask, then allow: remove the allow rule, or narrow the broader rule.',
            ...location(rule),
          },
        ),
      );
    }
  }
  return { toolFindings, ruleFindings };
}

/** How broad a rule is, for messages. */
function ruleKind(rule: string): string {
  const parts = splitMcpName(rule);
  return parts?.tool === undefined || parts.tool === '*' ? 'server-wide' : 'glob';
}

/** What check needs to judge Claude Code settings. */
export interface ClientRulesInput {
  files: SettingsFile[];
  mapping: RuleMapping;
  /** The file a fix names (`rules --write FILE`): the project settings file. */
  writeTarget: string;
}

/**
 * Puts each listed tool's effective decision on it, and each tool finding on its server's
 * findings; returns the findings about rules (and about tools of servers not audited in this
 * run), which belong to the run.
 */
export function applyClientRules(
  servers: ServerReport[],
  list: ClassList | undefined,
  input: ClientRulesInput,
): Finding[] {
  const rules = mergedRules(input.files);
  for (const server of servers)
    for (const tool of server.tools)
      tool.claudeCode = claudeCodeDecision(decide(rules, tool.fullName));
  const check = checkClientRules(
    list ?? { tools: new Map() },
    input.files,
    input.mapping,
    input.writeTarget,
  );
  const run = [...check.ruleFindings];
  for (const { record, finding: f } of check.toolFindings) {
    const server = servers.find((s) => s.server === record.server);
    if (server) server.findings.push(f);
    else run.push(f);
  }
  return run;
}
