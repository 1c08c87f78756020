import type { ToolClass } from '../../core/classify.js';
import type { ToolRecord } from '../../core/classlist.js';
import { quotedRule as quoted } from '../../core/client-words.js';
import type { ClientProblem } from '../../core/rules/rule.js';
import type { RuleMapping, SettingsFile } from './claude-settings.js';
import {
  DECISIONS,
  ruleShape,
  shapeMatches,
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
 * What is wrong with existing Claude Code settings themselves, as plain data (the Client row's
 * problems: a file dropped whole, a rule skipped, stale or shadowed), and each tool's effective
 * decision under the merged files as reports show it. The client rules of core/rules/ word them.
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

const at = (r: { file: string; line: number }): string => `${r.file} line ${r.line}`;
const place = (r: { file: string; line: number }) => ({ file: r.file, line: r.line });
const ruleKey = (r: SettingsRule): string => `${r.list}\u0000${r.rule}`;

/** What the rule checks read of a recorded tool. */
type RecordedTool = Pick<ToolRecord, 'server' | 'tool' | 'class'>;

/** What the problems of one rule need: the recorded servers, and each tool's decision. */
interface RulesContext {
  servers: Set<string>;
  decided: Map<string, Effective>;
  /** The recorded tools each rule (by list and text) matches. */
  matchedBy: Map<string, string[]>;
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

function rulesContext(state: ClaudeCodeState, recorded: [string, RecordedTool][]): RulesContext {
  return {
    servers: new Set(recorded.map(([, r]) => r.server)),
    decided: new Map(
      recorded.map(([key, r]) => [key, decideTool(state, refOf(r), r.class === 'read')]),
    ),
    matchedBy: matchedByRule(recorded, state),
  };
}

/**
 * The problems of the settings themselves, not one tool, for the recorded tools by full name (the
 * Client row's problems, client.ts): the files and settings first, then each rule in file order.
 */
export function settingsProblems(
  state: ClaudeCodeState,
  recorded: [string, RecordedTool][],
): ClientProblem[] {
  const context = rulesContext(state, recorded);
  return [
    ...fileProblems(state),
    ...appliedRules(state.files).flatMap((rule) => {
      const p = ruleProblem(rule, context);
      return p ? [p] : [];
    }),
  ];
}

/** What the rule that decided (`by`) holds under: a command or skill is active; else nothing. */
export function activeWhile(
  state: ClaudeCodeState,
  by: { file?: string; line?: number },
): string | undefined {
  return state.files.find(
    (f) => f.activeWhile !== undefined && f.rules.some((r) => placeKey(r) === placeKey(by)),
  )?.activeWhile;
}

const trustedOf = new WeakMap<ClaudeCodeState, Set<string>>();
const placeKey = (r: { file?: string; line?: number }) => `${r.file}\u0000${r.line}`;

/**
 * Whether the rule that decided (`by`, at its file and line) is one Claude Code applies only in a
 * trusted workspace (a rule of a file that needs trust); the places are gathered once per state.
 */
export function trustedOnly(state: ClaudeCodeState, by: { file?: string; line?: number }): boolean {
  let places = trustedOf.get(state);
  if (!places) {
    places = new Set(state.files.filter((f) => f.needsTrust).flatMap((f) => f.rules.map(placeKey)));
    trustedOf.set(state, places);
  }
  return places.has(placeKey(by));
}

/**
 * Problems of whole files and settings: a file Claude Code drops (settings-ignored, an error
 * while a recorded delete tool is not denied), a bypassPermissions it does not honour.
 */
function fileProblems(state: ClaudeCodeState): ClientProblem[] {
  const found: ClientProblem[] = [];
  for (const file of state.files)
    if (file.ignored)
      found.push({
        kind: 'settings-ignored',
        file: file.shown ?? file.path,
        line: file.ignored.line,
        why: file.ignored.why,
        fix: 'Fix that line: Claude Code drops a settings file that fails its validation, silently.',
      });
  for (const { item, why } of state.mode.ignoredBypass)
    found.push({
      kind: 'rule-ignored',
      rule: 'defaultMode "bypassPermissions"',
      ...place(item),
      why: `${why}; tools are decided by the rules`,
      fix: why.includes('disableBypassPermissionsMode')
        ? 'Nothing to fix: prompts stay on. Remove whichever of the two is not meant.'
        : 'Remove it: a committed file cannot switch permission prompts off.',
    });
  return found;
}

/** The problem of one rule, if any: skipped by Claude Code, stale, or shadowed (in that order). */
function ruleProblem(rule: SettingsRule, context: RulesContext): ClientProblem | undefined {
  const shape = ruleShape(rule.rule, rule.list);
  if (shape.kind === 'other') return undefined;
  if (shape.kind === 'ignored') return ignoredRuleProblem(rule, shape, context);
  const matched = context.matchedBy.get(ruleKey(rule)) ?? [];
  const written = { rule: `${rule.list} rule ${quoted(rule.rule)}`, ...place(rule) };
  if (!matched.length) {
    const server = shape.kind === 'tool' ? shape.server : undefined;
    const keyed = [...context.servers].find((s) => s.startsWith(`${server ?? ''}__`));
    if (rule.list === 'allow' && server !== undefined && keyed && !context.servers.has(server))
      return {
        kind: 'rule-ignored',
        ...written,
        why: `the server key "${keyed}" holds "__", and Claude Code approves its tools only by full name or mcp__${keyed}__*, so it approves nothing`,
        fix: `Write "mcp__${keyed}__*" or the full tool names.`,
      };
    return {
      kind: 'rule-stale',
      ...written,
      why:
        server !== undefined && !context.servers.has(server)
          ? `server "${server}", which the class list does not record`
          : 'no tool the class list records',
      fix: 'A typo or a removed tool: fix the name, or remove the rule.',
    };
  }
  if (rule.list !== 'allow') return undefined;
  return shadowedRuleProblem(rule, matched, context);
}

/** A rule Claude Code skips, with what it was probably meant to be. */
function ignoredRuleProblem(
  rule: SettingsRule,
  shape: Extract<RuleShape, { kind: 'ignored' }>,
  context: RulesContext,
): ClientProblem {
  let meant = shape.meant;
  // An allow glob over server names: the recorded servers it was probably written for.
  if (rule.rule.includes('*') && !rule.rule.includes('(')) {
    const hit = [...context.servers].filter((s) =>
      shapeMatches({ kind: 'glob', pattern: rule.rule }, `mcp__${s}__x`),
    );
    meant = hit.length ? hit.map((s) => `mcp__${s}`).join('", "') : undefined;
  }
  return {
    kind: 'rule-ignored',
    rule: `${rule.list} rule ${quoted(rule.rule)}`,
    ...place(rule),
    why: shape.why,
    fix: meant
      ? `Probably meant "${meant}": write that instead${rule.rule.includes('(') ? ' (to limit parameter values, use --disallowedTools)' : ''}, or remove the rule.`
      : 'Remove the rule, or write it as mcp__<server> or mcp__<server>__<tool>.',
  };
}

/** An allow rule every tool of which a deny or ask rule decides first. */
function shadowedRuleProblem(
  rule: SettingsRule,
  matched: string[],
  context: RulesContext,
): ClientProblem | undefined {
  const winners = matched.map((key) => context.decided.get(key)?.by);
  if (!winners.every((w) => w !== undefined && w.list !== 'allow')) return undefined;
  const first = winners[0] as SettingsRule;
  return {
    kind: 'rule-shadowed',
    rule: `allow rule ${quoted(rule.rule)}`,
    ...place(rule),
    why: `${matched.length === 1 ? (matched[0] as string) : `all ${matched.length} tools it matches`} ${matched.length === 1 ? 'is' : 'are'} decided first by ${first.list} rule ${quoted(first.rule)} in ${at(first)}`,
    fix: 'Claude Code checks deny, then ask, then allow: remove the allow rule, or narrow the broader rule.',
  };
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
