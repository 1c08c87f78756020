import type { ClassList } from './core/classlist.js';
import type { Finding } from './core/findings.js';
import { claudeCodeDecisions, type ClientRulesInput } from './clients/claude-code/client-rules.js';
import type { ChangeVerdicts, ReportedChange, ServerReport } from './report/report.js';
import { fullToolName, type ToolRecord } from './core/classlist.js';
import type { RuleMapping } from './clients/claude-code/claude-settings.js';
import { claudeCode } from './clients/claude-code/client.js';
import { claudeCodeState } from './clients/claude-code/claude-model.js';
import { seenBy, type ClientTool } from './clients/client.js';
import {
  judgeClient,
  recordedTool,
  type ClientsInput,
  type JudgedClient,
} from './clients/judge.js';
import { HINT_NAMES } from './core/tools.js';
import type { AuditedTool } from './report/report.js';
import { NPX_COMMAND } from './version.js';

/*
 * The audit's client step (audit.ts): what clients/ computes as plain data, put where the
 * report holds it. Every committed client config the run found is judged through the registry's
 * rows (clients/judge.ts): each audited tool's decision per client put on it (tools[].clients),
 * and the findings, each under its server, raised by the client rules of core/rules/ from what the
 * clients return. Claude Code's settings (the checked files) are judged the same way; its
 * decisions are put on tools[].claudeCode too (putClaudeCodeDecisions).
 */

/** Puts each listed tool's effective decision under the Claude Code settings on it. */
export function putClaudeCodeDecisions(servers: ServerReport[], input: ClientRulesInput): void {
  const tools = servers.flatMap((server) => server.tools.map((tool) => ({ server, tool })));
  const decisions = claudeCodeDecisions(
    input.files,
    tools.map(({ server, tool }) => ({
      server: server.server,
      tool: tool.name,
      class: tool.class,
    })),
  );
  tools.forEach(({ tool }, i) => (tool.claudeCode = decisions[i]));
}

export type { ClientsInput };

/** Whether a change moves what a client decides from: the class, or a hint the server declares. */
function movesDecisions(
  change: ReportedChange,
): change is ReportedChange & { before: ToolRecord; after: ToolRecord } {
  const { before, after } = change;
  return !!before && !!after && (before.class !== after.class || change.hints.length > 0);
}

/**
 * Puts on each class or hint change what every client decides for the tool before and after: the
 * base record's class and declared hints against the head's, through the same committed config
 * (so Codex's `auto` turning on a hint shows, beside a rule that holds either way).
 */
function putChangeVerdicts(
  changes: ReportedChange[],
  clients: JudgedClient[],
  mapping: RuleMapping,
  keys: ServerKeys,
): void {
  if (!clients.length) return;
  for (const change of changes) {
    if (!movesDecisions(change)) continue;
    const side = (r: ToolRecord) =>
      keyed(recordedTool(fullToolName(r.server, r.tool), r, mapping), keys);
    const [before, after] = [side(change.before), side(change.after)];
    change.clients = Object.fromEntries(
      clients.map(({ client, state }): [string, ChangeVerdicts] => [
        client.id,
        {
          before: client.decide(state, seenBy(client, before)),
          after: client.decide(state, seenBy(client, after)),
        },
      ]),
    );
  }
}

/** Each audited server's key as the config writes it, by its normalised name, where they differ. */
export type ServerKeys = ReadonlyMap<string, string>;

/** The tool with its server's key as written, for the clients that name tools by it. */
function keyed<T extends ClientTool>(tool: T, keys: ServerKeys): T {
  const key = keys.get(tool.server);
  return key === undefined ? tool : { ...tool, serverKey: key };
}

/** An audited tool as the seam takes it: its class and the hints it declares now. */
function liveTool(server: string, tool: AuditedTool): ClientTool {
  const declared: ClientTool['declared'] = {};
  for (const h of HINT_NAMES) {
    const state = tool.hints[h];
    if (state.declared && state.value !== undefined) declared[h] = state.value;
  }
  return { server, tool: tool.name, class: tool.class, declared };
}

/**
 * The clients to judge: Claude Code's settings (when checked) first, a fix naming the file
 * checked, then each other client whose committed files were found.
 */
function judgedClients(input: ClientsInput | undefined, claude: ClientRulesInput | undefined) {
  const out: JudgedClient[] = [];
  if (claude)
    out.push({
      client: claudeCode,
      state: claudeCodeState(claude.files),
      rulesCommand: `${NPX_COMMAND} rules --write ${claude.writeTarget}`,
    });
  for (const judged of input?.judged ?? [])
    if (judged.client.id !== claudeCode.id) out.push(judged);
  return out;
}

/**
 * Puts each audited tool's decision per client on it, and each tool finding on its server's
 * findings; returns the findings about the files (and about tools of servers not audited in this
 * run), which belong to the run.
 */
export function applyClients(
  servers: ServerReport[],
  list: ClassList | undefined,
  input: ClientsInput | undefined,
  claude: ClientRulesInput | undefined,
  keys: ServerKeys = new Map(),
): Finding[] {
  const judged = judgedClients(input, claude);
  const mapping = input?.mapping ?? claude?.mapping;
  if (mapping)
    putChangeVerdicts(
      servers.flatMap((s) => s.changes),
      [...judged, ...(input?.listed ?? [])],
      mapping,
      keys,
    );
  // Clients to judge come with their mapping (Claude Code's input, or the others').
  if (!judged.length || !mapping) return [];
  for (const server of servers)
    for (const tool of server.tools) {
      const live = keyed(liveTool(server.server, tool), keys);
      tool.clients = Object.fromEntries(
        judged.map(({ client, state }) => [client.id, client.decide(state, seenBy(client, live))]),
      );
    }
  const recorded = [...(list?.tools ?? [])].map(([key, r]) =>
    keyed(recordedTool(key, r, mapping), keys),
  );
  const run: Finding[] = [];
  for (const one of judged) {
    const check = judgeClient(one, recorded, mapping.classes);
    run.push(...check.ruleFindings);
    for (const { server: name, finding } of check.toolFindings) {
      const server = servers.find((s) => s.server === name);
      if (server) server.findings.push(finding);
      else run.push(finding);
    }
  }
  return run;
}
