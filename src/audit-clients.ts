import type { ClassList } from './core/classlist.js';
import type { Finding } from './core/findings.js';
import {
  checkClientRules,
  claudeCodeDecisions,
  type ClientRulesInput,
} from './clients/claude-code/client-rules.js';
import type { ServerReport } from './report/report.js';

/*
 * The audit's client step (audit.ts): what clients/ computes as plain data, put where the
 * report holds it.
 */

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
  const check = checkClientRules(
    list ?? { tools: new Map() },
    input.files,
    input.mapping,
    input.writeTarget,
  );
  const run = [...check.ruleFindings];
  for (const { record, finding } of check.toolFindings) {
    const server = servers.find((s) => s.server === record.server);
    if (server) server.findings.push(finding);
    else run.push(finding);
  }
  return run;
}
