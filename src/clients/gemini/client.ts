import { compareText } from '../../core/order.js';
import { loadJsonText } from '../../core/jsontext.js';
import {
  expectedDecision,
  type Client,
  type ClientFile,
  type ClientProblem,
  type ClientTool,
} from '../client.js';
import { decideGemini, geminiToolName, namePatternMatches, type GeminiState } from './model.js';
import {
  loadPolicyParser,
  mergePolicy,
  parsePolicy,
  type OwnRule,
  type PolicyDecision,
} from './policy.js';
import { parseGeminiSettings, type ListEntry } from './settings.js';

/*
 * Gemini CLI as a row of the client registry: the seam (../client.ts) over the model of this
 * folder (model.ts, observed on the binary by test/oracle/gemini.test.ts).
 */

export const GEMINI_SETTINGS = '.gemini/settings.json';
/** Where `rules --client gemini` writes: Gemini loads it with --policy, never on its own. */
export const GEMINI_POLICY = '.gemini/mcp-tool-classes.policy.toml';
/** The workspace policies folder Gemini CLI 0.61.0 does not load. */
export const WORKSPACE_POLICIES = '.gemini/policies';
/** Above every rule Gemini makes of a setting (4.1 to 4.9), so the class list decides. */
export const RULE_PRIORITY = 950;

const TO_POLICY: Record<'allow' | 'ask' | 'deny', PolicyDecision> = {
  allow: 'allow',
  ask: 'ask_user',
  deny: 'deny',
};

const HEADER = [
  '# The MCP tool class list as Gemini CLI policy rules (mcp-annotation-auditor rules --client gemini):',
  '# read tools run, edit tools ask, delete tools are refused.',
  '# Gemini CLI does not load policies from a workspace: run gemini --policy .gemini/mcp-tool-classes.policy.toml,',
  '# or copy this file to ~/.gemini/policies/.',
  '',
  '',
].join('\n');

/** The repository's files as a state: settings, the rules file (as --policy), ignored policies. */
function readState(files: ClientFile[]): GeminiState {
  const settings = files.find((f) => f.path === GEMINI_SETTINGS);
  const policy = files.find((f) => f.path === GEMINI_POLICY);
  return {
    ...(settings ? { settings: parseGeminiSettings(settings.text, settings.path) } : {}),
    ...(policy ? { policy: parsePolicy(policy.text, policy.path) } : {}),
    ignoredPolicies: files
      .map((f) => f.path)
      .filter((p) => p.startsWith(`${WORKSPACE_POLICIES}/`) && p.endsWith('.toml'))
      .sort(),
  };
}

/** A named rule: the tool names it can match, the line it is on and how it reads. */
interface Named {
  names: string[];
  mcpName?: string;
  rule: string;
  file: string;
  line: number;
}

function namedRules(state: GeminiState): Named[] {
  const out: Named[] = [];
  const s = state.settings;
  if (s)
    for (const e of [...s.allowed, ...s.exclude, ...s.confirmationRequired])
      out.push({
        names: [e.value],
        rule: `${e.setting}: ${JSON.stringify(e.value)}`,
        file: s.path,
        line: e.line,
      });
  const p = state.policy;
  if (p && !p.skipped)
    for (const r of p.rules)
      out.push({
        names: r.toolNames,
        ...(r.mcpName ? { mcpName: r.mcpName } : {}),
        rule: r.text,
        file: p.path,
        line: r.line,
      });
  return out;
}

/** Rules that name nothing: a glob Gemini compares whole, a bare name, a tool not recorded. */
function nameProblems(state: GeminiState, tools: ClientTool[]): ClientProblem[] {
  const problems: ClientProblem[] = [];
  const servers = [...new Set(tools.map((t) => t.server))];
  const ofServer = (name: string) => servers.find((s) => name.startsWith(geminiToolName(s, '')));
  for (const r of namedRules(state))
    for (const name of r.names) {
      const at = { file: r.file, line: r.line };
      if (name.includes('*') && name !== '*' && name !== 'mcp_*' && !/^mcp_.+_\*$/.test(name)) {
        problems.push({
          kind: 'rule-ignored',
          rule: r.rule,
          why: `Gemini CLI compares ${JSON.stringify(name)} whole, as a name (its * matches only *, mcp_* and mcp_<server>_*), so it matches no tool`,
          fix: 'Name each tool (mcp_<server>_<tool>), or use mcp_<server>_* for a whole server.',
          ...at,
        });
        continue;
      }
      const bare = tools.find((t) => t.tool === name);
      if (bare && !r.rule.startsWith('tools.exclude') && !r.mcpName) {
        problems.push({
          kind: 'rule-ignored',
          rule: r.rule,
          why: `Gemini CLI names the tool ${geminiToolName(bare.server, bare.tool)}, so it does not match it`,
          fix: `Write ${geminiToolName(bare.server, bare.tool)}.`,
          ...at,
        });
        continue;
      }
      const server = r.mcpName && servers.includes(r.mcpName) ? r.mcpName : ofServer(name);
      if (server === undefined || name.endsWith('_*')) continue;
      if (
        !tools.some(
          (t) =>
            t.server === server &&
            namePatternMatches(name, geminiToolName(t.server, t.tool), t.server),
        )
      )
        problems.push({
          kind: 'rule-stale',
          rule: r.rule,
          why: `no tool the class list records for the ${server} server`,
          fix: 'Remove it, or rename it after the tool (rules --client gemini --write rewrites its own rules).',
          ...at,
        });
    }
  return problems;
}

function problems(state: GeminiState, tools: ClientTool[]): ClientProblem[] {
  const out: ClientProblem[] = state.ignoredPolicies.map((file) => ({
    kind: 'rule-ignored',
    why: 'Gemini CLI 0.61.0 does not load policies from a workspace, so the file counts for nothing',
    fix: `Move its rules to ${GEMINI_POLICY} and run gemini --policy ${GEMINI_POLICY}, or copy it to ~/.gemini/policies/.`,
    file,
    line: 1,
  }));
  const s = state.settings;
  for (const i of s?.ignored ?? [])
    out.push({
      kind: 'rule-ignored',
      rule: i.setting,
      why: i.why,
      fix: 'Remove it from the workspace settings.',
      file: s?.path as string,
      line: i.line,
    });
  const p = state.policy;
  if (p?.skipped)
    out.push({
      kind: 'rule-ignored',
      why: `Gemini CLI skips the whole policy file for ${p.skipped.why}`,
      fix: 'Fix that rule: one rule Gemini refuses drops every rule of the file.',
      file: p.path,
      line: p.skipped.line,
    });
  return [...out, ...nameProblems(state, tools)];
}

const anyList = (lists: (ListEntry[] | undefined)[]) => lists.some((l) => l?.length);

export const gemini: Client<GeminiState> = {
  id: 'gemini',
  label: 'Gemini CLI',
  verified: { binary: '@google/gemini-cli', version: '0.61.0' },
  projectFiles: [GEMINI_SETTINGS, GEMINI_POLICY],
  projectDirs: [WORKSPACE_POLICIES],
  fullName: geminiToolName,
  keepsKeys: true,
  load: async () => {
    await Promise.all([loadPolicyParser(), loadJsonText()]);
  },
  read: readState,
  configures: (state) => {
    const s = state.settings;
    return (
      (s !== undefined &&
        (s.servers.size > 0 ||
          anyList([
            s.allowed,
            s.exclude,
            s.confirmationRequired,
            s.allowedServers,
            s.excludedServers,
            s.core,
          ]))) ||
      (state.policy?.rules.length ?? 0) > 0 ||
      state.ignoredPolicies.length > 0
    );
  },
  decide: (state, tool) => decideGemini(state, tool),
  problems,
  rulesFile: GEMINI_POLICY,
  writeRules(existing, tools, mapping, path = GEMINI_POLICY) {
    const wanted: OwnRule[] = tools
      .map((t) => ({
        server: t.server,
        tool: t.tool,
        fullName: geminiToolName(t.server, t.tool),
        decision: TO_POLICY[expectedDecision(t, mapping)],
        priority: RULE_PRIORITY,
      }))
      .sort((a, b) => compareText(a.fullName, b.fullName));
    return mergePolicy(parsePolicy(existing ?? '', path), wanted, HEADER);
  },
  notes: [
    `Gemini CLI 0.61.0 ignores a workspace's .gemini/policies/: run gemini --policy ${GEMINI_POLICY}, or copy the file to ~/.gemini/policies/ (the check reads it as passed with --policy).`,
    'A server with trust: true in .gemini/settings.json runs the tools a rule says to ask about; only deny holds against it.',
    'Headless (gemini -p) refuses a tool that asks, and offers no tool that no rule allows.',
  ],
};
