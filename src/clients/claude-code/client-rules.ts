import type { ToolClass } from '../../core/classify.js';
import type { ClassList, ToolRecord } from '../../core/classlist.js';
import { mappedDecision, type RuleMapping, type SettingsFile } from './claude-settings.js';
import { finding, type Finding } from '../../core/findings.js';
import { NPX_COMMAND } from '../../version.js';
import {
  DECISIONS,
  ruleShape,
  shapeMatches,
  splitMcpName,
  toolRef,
  type Decision,
  type Effective,
  type RuleShape,
  type SettingsRule,
  type ToolRef,
} from './permissions.js';
import {
  appliedRules,
  asChecked,
  claudeCodeState,
  decideTool,
  type ClaudeCodeState,
} from './claude-model.js';
import type { CheckedSettings } from './settings-check.js';

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

/** Every rule Claude Code applies from the files, in the order given (the first match is named). */
export function mergedRules(files: (SettingsFile | CheckedSettings)[]): SettingsRule[] {
  return appliedRules(files.map(asChecked));
}

export interface RulesCheck {
  /** Findings about one recorded tool, by its full name, with the record. */
  toolFindings: { key: string; record: ToolRecord; finding: Finding }[];
  /** Findings about a rule (skipped, stale, shadowed) or a file: located on its line. */
  ruleFindings: Finding[];
}

const quoted = (rule: string): string =>
  JSON.stringify(rule.length > 120 ? `${rule.slice(0, 119)}…` : rule);
const at = (r: { file: string; line: number }): string => `${r.file} line ${r.line}`;
const location = (r: { file: string; line: number }) => ({
  location: { file: r.file, line: r.line },
});
const ruleKey = (r: SettingsRule): string => `${r.list}\u0000${r.rule}`;

/** What the rule checks read of a recorded tool. */
type RecordedTool = Pick<ToolRecord, 'server' | 'tool' | 'class'>;

/** What the checks of one rule need: the recorded tools and servers, and each tool's decision. */
interface RulesContext {
  recorded: [string, RecordedTool][];
  servers: Set<string>;
  decided: Map<string, Effective>;
  /** The recorded tools each rule (by list and text) matches. */
  matchedBy: Map<string, string[]>;
  state: ClaudeCodeState;
}

/** The ref Claude Code knows a recorded tool by. */
const refOf = (record: RecordedTool): ToolRef => toolRef(record.server, record.tool);

/** For each rule, the recorded tools it matches: looked up per tool in the index. */
function matchedByRule(recorded: [string, RecordedTool][], state: ClaudeCodeState) {
  const matchedBy = new Map<string, string[]>();
  for (const [key, record] of recorded)
    for (const list of DECISIONS)
      for (const c of state.index.matching(list, refOf(record))) {
        const tools = matchedBy.get(ruleKey(c.rule)) ?? [];
        tools.push(key);
        matchedBy.set(ruleKey(c.rule), tools);
      }
  return matchedBy;
}

/**
 * Checks the settings `files` against the class list and the mapping, as Claude Code reads them;
 * `writeTarget` is the file a `rules --write` fix would name.
 */
export function checkClientRules(
  list: ClassList,
  files: (SettingsFile | CheckedSettings)[],
  mapping: RuleMapping,
  writeTarget: string,
): RulesCheck {
  const state = claudeCodeState(files);
  const recorded = [...list.tools];
  const context = rulesContext(state, recorded);
  const needTrust = trustedOnly(state);
  const toolFindings = recorded.flatMap(([key, record]) =>
    toolRuleFindings(key, record, {
      effective: context.decided.get(key) as Effective,
      expected: mappedDecision(mapping, key, record),
      writeTarget,
      trusted: needTrust.has(context.decided.get(key)?.by as SettingsRule),
    }).map((f) => ({ key, record, finding: f })),
  );
  return { toolFindings, ruleFindings: settingsFindings(context) };
}

function rulesContext(state: ClaudeCodeState, recorded: [string, RecordedTool][]): RulesContext {
  return {
    recorded,
    servers: new Set(recorded.map(([, r]) => r.server)),
    decided: new Map(
      recorded.map(([key, r]) => [key, decideTool(state, refOf(r), r.class === 'read')]),
    ),
    matchedBy: matchedByRule(recorded, state),
    state,
  };
}

/** The findings about the files and their rules (dropped, skipped, stale, shadowed), in file order. */
function settingsFindings(context: RulesContext): Finding[] {
  return [
    ...fileFindings(context),
    ...appliedRules(context.state.files).flatMap((rule) => {
      const f = ruleFinding(rule, context);
      return f ? [f] : [];
    }),
  ];
}

/**
 * The findings about the settings themselves, not one tool, for the recorded tools by full name:
 * what the Client row (client.ts) gives as its problems.
 */
export function settingsProblems(
  state: ClaudeCodeState,
  recorded: [string, RecordedTool][],
): Finding[] {
  return settingsFindings(rulesContext(state, recorded));
}

/** The rules Claude Code applies only in a trusted workspace (those of files that need trust). */
function trustedOnly(state: ClaudeCodeState): Set<SettingsRule> {
  return new Set(state.files.filter((f) => f.needsTrust).flatMap((f) => f.rules));
}

/**
 * Findings about whole files and settings: a file Claude Code drops (an error while a recorded
 * delete tool is not denied, since the file may be what denied it), a bypassPermissions it does
 * not honour.
 */
function fileFindings(context: RulesContext): Finding[] {
  const { state } = context;
  const deleteExposed = context.recorded.some(
    ([key, r]) => r.class === 'delete' && context.decided.get(key)?.decision !== 'deny',
  );
  const found: Finding[] = [];
  for (const file of state.files) {
    const shown = file.shown ?? file.path;
    if (file.ignored) {
      const f = finding(
        'settings-ignored',
        undefined,
        `Claude Code ignores ${shown} entirely: ${file.ignored.why}${file.ignored.why.includes(' at line ') ? '' : ` (line ${file.ignored.line})`}, so none of its rules apply, deny and ask rules included${deleteExposed ? '; a recorded delete tool is not denied without it' : ''}.`,
        {
          fix: 'Fix that line: Claude Code drops a settings file that fails its validation, silently.',
          location: { file: shown, line: file.ignored.line },
        },
      );
      found.push(deleteExposed ? f : { ...f, severity: 'warning' });
    }
  }
  for (const { item, why } of state.mode.ignoredBypass)
    found.push(
      finding(
        'rule-ignored',
        undefined,
        `defaultMode "bypassPermissions" in ${at(item)} is ignored: ${why}; tools are decided by the rules.`,
        {
          fix: why.includes('disableBypassPermissionsMode')
            ? 'Nothing to fix: prompts stay on. Remove whichever of the two is not meant.'
            : 'Remove it: a committed file cannot switch permission prompts off.',
          ...location(item),
        },
      ),
    );
  return found;
}

/** One recorded tool's findings: allowed without asking against its class, or decided by no rule. */
function toolRuleFindings(
  key: string,
  record: ToolRecord,
  {
    effective,
    expected,
    writeTarget,
    trusted,
  }: { effective: Effective; expected: Decision; writeTarget: string; trusted: boolean },
): Finding[] {
  const found: Finding[] = [];
  const by = effective.by;
  if (effective.decision === 'allow' && by && expected !== 'allow' && record.class !== 'read') {
    const rule = record.class === 'delete' ? 'rule-allows-delete' : 'rule-allows-edit';
    // A mode or a hook is named as it is written; a rule by how broad it is.
    const broad =
      by.rule !== key && by.rule.startsWith('mcp__') ? ` (a ${ruleKind(by.rule)} rule)` : '';
    // Claude Code reads a project file's allow rules only in a trusted workspace: the check
    // assumes the trust dialog was accepted, as it is wherever the repository is worked on.
    const trust = trusted ? ' (once the workspace is trusted, as the check assumes)' : '';
    found.push(
      finding(
        rule,
        record.tool,
        `${record.class} tool ${key}: ${quoted(by.rule)}${broad} in ${at(by)} allows it, so Claude Code runs it without asking${trust}; the class list maps it to ${expected}.`,
        {
          fix: `Run ${NPX_COMMAND} rules --write ${writeTarget}, or fix the rule by hand.`,
          ...location(by),
        },
      ),
    );
  }
  if (effective.decision === 'unset')
    found.push(
      finding(
        'rule-unset',
        record.tool,
        `No rule decides ${record.class} tool ${key}: Claude Code asks each time${expected !== 'ask' ? `; the class list maps it to ${expected}` : ''}.`,
        { fix: `Run ${NPX_COMMAND} rules --write ${writeTarget}.` },
      ),
    );
  return found;
}

/** The finding about one rule, if any: skipped by Claude Code, stale, or shadowed (in that order). */
function ruleFinding(rule: SettingsRule, context: RulesContext): Finding | undefined {
  const shape = ruleShape(rule.rule, rule.list);
  if (shape.kind === 'other') return undefined;
  if (shape.kind === 'ignored') return ignoredRuleFinding(rule, shape, context);
  const matched = context.matchedBy.get(ruleKey(rule)) ?? [];
  if (!matched.length) {
    const server = shape.kind === 'tool' ? shape.server : undefined;
    const keyed = [...context.servers].find((s) => s.startsWith(`${server ?? ''}__`));
    if (rule.list === 'allow' && server !== undefined && keyed && !context.servers.has(server))
      return finding(
        'rule-ignored',
        undefined,
        `allow rule ${quoted(rule.rule)} in ${at(rule)} approves nothing: the server key "${keyed}" holds "__", and Claude Code approves its tools only by full name or mcp__${keyed}__*.`,
        { fix: `Write "mcp__${keyed}__*" or the full tool names.`, ...location(rule) },
      );
    const what =
      server !== undefined && !context.servers.has(server)
        ? `server "${server}", which the class list does not record`
        : 'no tool the class list records';
    return finding(
      'rule-stale',
      undefined,
      `${rule.list} rule ${quoted(rule.rule)} in ${at(rule)} names ${what}.`,
      {
        fix: 'A typo or a removed tool: fix the name, or remove the rule.',
        ...location(rule),
      },
    );
  }
  if (rule.list !== 'allow') return undefined;
  return shadowedRuleFinding(rule, matched, context);
}

/** A rule Claude Code skips, with what it was probably meant to be. */
function ignoredRuleFinding(
  rule: SettingsRule,
  shape: Extract<RuleShape, { kind: 'ignored' }>,
  context: RulesContext,
): Finding {
  let meant = shape.meant;
  // An allow glob over server names: the recorded servers it was probably written for.
  if (rule.rule.includes('*') && !rule.rule.includes('(')) {
    const hit = [...context.servers].filter((s) =>
      shapeMatches({ kind: 'glob', pattern: rule.rule }, `mcp__${s}__x`),
    );
    meant = hit.length ? hit.map((s) => `mcp__${s}`).join('", "') : undefined;
  }
  return finding(
    'rule-ignored',
    undefined,
    `${rule.list} rule ${quoted(rule.rule)} in ${at(rule)} is skipped: ${shape.why}.`,
    {
      fix: meant
        ? `Probably meant "${meant}": write that instead${rule.rule.includes('(') ? ' (to limit parameter values, use --disallowedTools)' : ''}, or remove the rule.`
        : 'Remove the rule, or write it as mcp__<server> or mcp__<server>__<tool>.',
      ...location(rule),
    },
  );
}

/** An allow rule every tool of which a deny or ask rule decides first. */
function shadowedRuleFinding(
  rule: SettingsRule,
  matched: string[],
  context: RulesContext,
): Finding | undefined {
  const winners = matched.map((key) => context.decided.get(key)?.by);
  if (!winners.every((w) => w !== undefined && w.list !== 'allow')) return undefined;
  const first = winners[0] as SettingsRule;
  return finding(
    'rule-shadowed',
    undefined,
    `allow rule ${quoted(rule.rule)} in ${at(rule)} decides nothing: ${matched.length === 1 ? (matched[0] as string) : `all ${matched.length} tools it matches`} ${matched.length === 1 ? 'is' : 'are'} decided first by ${first.list} rule ${quoted(first.rule)} in ${at(first)}.`,
    {
      fix: 'Claude Code checks deny, then ask, then allow: remove the allow rule, or narrow the broader rule.',
      ...location(rule),
    },
  );
}

/** How broad a rule is, for messages. */
function ruleKind(rule: string): string {
  const parts = splitMcpName(rule);
  return parts?.tool === undefined || parts.tool === '*' ? 'server-wide' : 'glob';
}

/** What check needs to judge Claude Code settings. */
export interface ClientRulesInput {
  files: (SettingsFile | CheckedSettings)[];
  mapping: RuleMapping;
  /** The file a fix names (`rules --write FILE`): the project settings file. */
  writeTarget: string;
}

/** What Claude Code decides for each of `tools` under the files, as reports show it. */
export function claudeCodeDecisions(
  files: (SettingsFile | CheckedSettings)[],
  tools: { server: string; tool: string; class: ToolClass }[],
): ClaudeCodeDecision[] {
  const state = claudeCodeState(files);
  return tools.map((t) =>
    claudeCodeDecision(decideTool(state, toolRef(t.server, t.tool), t.class === 'read')),
  );
}
