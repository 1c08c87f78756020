import type { ClientTool, ClientVerdict } from '../client.js';
import type { PolicyDecision, PolicyFile } from './policy.js';
import type { GeminiSettings, ListEntry } from './settings.js';

/*
 * How Gemini CLI 0.61.0 decides an MCP tool, from a workspace settings file and a policy file
 * passed with --policy (observed on the binary: test/oracle/gemini.test.ts). Gemini turns every
 * setting into a policy rule of the user tier (4 + priority/1000) and takes the first rule of
 * the highest priority that matches; none matching, it asks (interactive) or hides the tool
 * (headless, -p). Before that, a server or tool it never offers: not started (mcp.allowed,
 * mcp.excluded, an entry without a command), or dropped (includeTools, excludeTools,
 * tools.exclude). After it, `trust: true` runs a tool a rule says to ask about (interactive only).
 * Pure.
 */

/** Why a verdict came out as it did: the setting or rule as written, and where. */
interface Source {
  rule: string;
  file: string;
  line: number;
}

/** A rule of Gemini's policy engine, from a policy file or a setting. */
interface EngineRule {
  toolName: string;
  mcpName?: string;
  decision: PolicyDecision;
  priority: number;
  modes?: readonly string[];
  interactive?: boolean;
  toolAnnotations?: Record<string, unknown>;
  args?: boolean;
  subagent?: boolean;
  source: Source;
}

export interface GeminiState {
  settings?: GeminiSettings;
  policy?: PolicyFile;
  /** Workspace `.gemini/policies/` files: Gemini 0.61.0 loads none of them. */
  ignoredPolicies: string[];
}

/** Settings rules' priorities (Gemini's policy/config.ts), the user tier being 4. */
const PRIORITY = {
  mcpExcluded: 4.9,
  exclude: 4.4,
  confirmationRequired: 4.35,
  allowed: 4.3,
  core: 4.25,
  trust: 4.2,
  mcpAllowed: 4.1,
};
const NOT_PLAN = ['default', 'autoEdit', 'yolo'] as const;

/** The name Gemini gives a server's tool: `mcp_<server>_<tool>`, other characters as `_`, 63 at most. */
export function geminiToolName(server: string, tool: string): string {
  const joined = `${server}_${tool}`;
  let name = (joined.startsWith('mcp_') ? joined : `mcp_${joined}`).replace(
    /[^a-zA-Z0-9_\-.:]/g,
    '_',
  );
  if (name.length > 63) name = `${name.slice(0, 30)}...${name.slice(-30)}`;
  return name;
}

/** Gemini's toolName patterns: `*`, `mcp_*`, `mcp_<server>_*`; anything else is compared whole. */
export function namePatternMatches(
  pattern: string,
  name: string,
  server: string | undefined,
): boolean {
  if (pattern === '*') return true;
  if (pattern === 'mcp_*') return server !== undefined;
  if (pattern.startsWith('mcp_') && pattern.endsWith('_*')) {
    const expected = pattern.slice(4, -2);
    return server === expected && name.startsWith(`mcp_${expected}_`);
  }
  return name === pattern;
}

const entrySource = (e: ListEntry, file: string): Source => ({
  rule: `${e.setting}: ${JSON.stringify(e.value)}`,
  file,
  line: e.line,
});

/** The settings file's rules, as Gemini's createPolicyEngineConfig makes them. */
function settingsRules(s: GeminiSettings): EngineRule[] {
  const rules: EngineRule[] = [];
  const serverPattern = (key: string) => (key === '*' ? 'mcp_*' : `mcp_${key}_*`);
  for (const e of s.excludedServers)
    rules.push({
      toolName: serverPattern(e.value),
      mcpName: e.value,
      decision: 'deny',
      priority: PRIORITY.mcpExcluded,
      source: entrySource(e, s.path),
    });
  for (const e of s.exclude)
    rules.push({
      toolName: e.value,
      decision: 'deny',
      priority: PRIORITY.exclude,
      source: entrySource(e, s.path),
    });
  // "name(args)" narrows a shell command; for any other tool it is the name.
  const bare = (v: string) => /^([a-zA-Z0-9_-]+)\((.*)\)$/.exec(v)?.[1] ?? v;
  for (const e of s.allowed)
    rules.push({
      toolName: bare(e.value),
      decision: 'allow',
      priority: PRIORITY.allowed,
      source: entrySource(e, s.path),
    });
  for (const e of s.confirmationRequired)
    rules.push({
      toolName: e.value,
      decision: 'ask_user',
      priority: PRIORITY.confirmationRequired,
      source: entrySource(e, s.path),
    });
  if (s.core) {
    for (const e of s.core)
      rules.push({
        toolName: bare(e.value),
        decision: 'allow',
        priority: PRIORITY.core,
        modes: NOT_PLAN,
        source: entrySource(e, s.path),
      });
    const line = s.core[0]?.line ?? 1;
    rules.push({
      toolName: '*',
      decision: 'deny',
      priority: PRIORITY.core - 0.01,
      modes: NOT_PLAN,
      source: { rule: 'tools.core (every tool not listed)', file: s.path, line },
    });
  }
  for (const server of s.servers.values())
    if (server.trust !== undefined)
      rules.push({
        toolName: serverPattern(server.key),
        mcpName: server.key,
        decision: 'allow',
        priority: PRIORITY.trust,
        modes: NOT_PLAN,
        source: { rule: `mcpServers.${server.key}.trust: true`, file: s.path, line: server.trust },
      });
  for (const e of s.allowedServers ?? [])
    rules.push({
      toolName: serverPattern(e.value),
      mcpName: e.value,
      decision: 'allow',
      priority: PRIORITY.mcpAllowed,
      modes: NOT_PLAN,
      source: entrySource(e, s.path),
    });
  return rules;
}

/** Gemini's own rules of the default tier that reach MCP tools: plan mode's. */
const PLAN_RULES: EngineRule[] = [
  {
    toolName: '*',
    mcpName: '*',
    toolAnnotations: { readOnlyHint: true },
    decision: 'ask_user',
    priority: 1.05,
    modes: ['plan'],
    interactive: true,
    source: { rule: 'plan mode: read-only MCP tools ask', file: '', line: 0 },
  },
  {
    toolName: '*',
    decision: 'deny',
    priority: 1.04,
    modes: ['plan'],
    source: { rule: 'plan mode: everything else refused', file: '', line: 0 },
  },
];

/** Every rule in the order Gemini tries them: highest priority first, file rules before settings' at a tie. */
export function engineRules(state: GeminiState): EngineRule[] {
  const file: EngineRule[] = [];
  const policy = state.policy;
  if (policy && !policy.skipped)
    for (const r of policy.rules)
      for (const toolName of r.toolNames)
        file.push({
          toolName,
          ...(r.mcpName !== undefined ? { mcpName: r.mcpName } : {}),
          decision: r.decision,
          priority: 4 + r.priority / 1000,
          ...(r.modes?.length ? { modes: r.modes } : {}),
          ...(r.interactive !== undefined ? { interactive: r.interactive } : {}),
          ...(r.toolAnnotations ? { toolAnnotations: r.toolAnnotations } : {}),
          args: r.args,
          subagent: r.subagent,
          source: { rule: r.text, file: policy.path, line: r.line },
        });
  const rules = [...file, ...(state.settings ? settingsRules(state.settings) : []), ...PLAN_RULES];
  // Array.prototype.sort is stable, as Gemini's own sort of the same list is.
  return rules.sort((a, b) => b.priority - a.priority);
}

/** Gemini's ruleMatches for a call of the main agent, with no arguments known. */
function ruleMatches(
  r: EngineRule,
  name: string,
  tool: ClientTool,
  mode: string,
  interactive: boolean,
): boolean {
  if (r.modes && !r.modes.includes(mode)) return false;
  if (r.subagent) return false;
  if (r.mcpName !== undefined && r.mcpName !== '*' && r.mcpName !== tool.server) return false;
  if (r.toolName !== '*' && !namePatternMatches(r.toolName, name, tool.server)) return false;
  if (r.toolAnnotations)
    for (const [key, value] of Object.entries(r.toolAnnotations))
      if ((tool.declared as Record<string, unknown>)[key] !== value) return false;
  if (r.interactive !== undefined && r.interactive !== interactive) return false;
  return true;
}

/** Gemini's approval mode from the settings (yolo only ever comes from the command line). */
function modeOf(state: GeminiState): string {
  const value = state.settings?.approvalMode?.value;
  return value === 'plan' ? 'plan' : value === 'auto_edit' ? 'autoEdit' : 'default';
}

/** The setting that keeps the tool from ever being offered, or undefined. */
export function hiddenBy(state: GeminiState, tool: ClientTool): Source | undefined {
  const s = state.settings;
  if (!s) return undefined;
  const server = s.servers.get(tool.server);
  const at = (rule: string, line: number): Source => ({ rule, file: s.path, line });
  if (server && !server.starts)
    return at(`mcpServers.${tool.server} (no command, url or httpUrl)`, server.line);
  const allowed = s.allowedServers;
  if (allowed?.length && !allowed.some((e) => e.value === tool.server))
    return at(`mcp.allowed: ${JSON.stringify(allowed.map((e) => e.value))}`, allowed[0]?.line ?? 1);
  const excluded = s.excludedServers.find((e) => e.value === tool.server);
  if (excluded) return entrySource(excluded, s.path);
  const dropped = server?.excludeTools.find((e) => e.value === tool.tool);
  if (dropped) return entrySource(dropped, s.path);
  if (
    server?.includeTools &&
    !server.includeTools.some((e) => e.value === tool.tool || e.value.startsWith(`${tool.tool}(`))
  )
    return at(
      `mcpServers.${tool.server}.includeTools`,
      server.includeTools[0]?.line ?? server.line,
    );
  // tools.exclude names the tool by its name, its own name, or the class of every MCP tool.
  const names = [geminiToolName(tool.server, tool.tool), tool.tool, 'DiscoveredMCPTool'];
  const excludedTool = s.exclude.find((e) => names.includes(e.value));
  return excludedTool ? entrySource(excludedTool, s.path) : undefined;
}

/** What Gemini does with the tool: interactive (the terminal UI, an editor over ACP) or headless (-p). */
export function decideGemini(
  state: GeminiState,
  tool: ClientTool,
  interactive = true,
): ClientVerdict {
  const hidden = hiddenBy(state, tool);
  if (hidden) return { decision: 'hidden', ...hidden };
  const name = geminiToolName(tool.server, tool.tool);
  const mode = modeOf(state);
  // An allow that holds for some arguments only may still let the call run: counted as allow.
  const match = engineRules(state).find(
    (r) => ruleMatches(r, name, tool, mode, interactive) && (!r.args || r.decision === 'allow'),
  );
  const decision = match?.decision ?? (interactive ? 'ask_user' : 'deny');
  const source = match && match.source.file ? match.source : undefined;
  const by = source ? { rule: source.rule, file: source.file, line: source.line } : {};
  if (decision === 'deny')
    return match
      ? { decision: 'deny', ...by, ...(source ? {} : { byClient: match.source.rule }) }
      : { decision: 'hidden', byClient: 'no rule allows it: headless Gemini does not offer it' };
  if (decision === 'allow') return { decision: 'allow', ...by };
  if (!interactive)
    return { decision: 'ask', ...by, byClient: 'headless Gemini refuses a tool that asks' };
  const trust = state.settings?.servers.get(tool.server)?.trust;
  if (trust !== undefined)
    return {
      decision: 'allow',
      rule: `mcpServers.${tool.server}.trust: true`,
      file: state.settings?.path,
      line: trust,
      byClient: 'trust: true runs the tools of the server without the confirmation a rule asks for',
    };
  return match
    ? { decision: 'ask', ...by, ...(source ? {} : { byClient: match.source.rule }) }
    : { decision: 'ask', byClient: 'no rule decides it: Gemini asks each time' };
}
