// Cases of the client rules' table tests: one client's verdict on one recorded tool, or one of
// its problems, as clients/judge.ts builds the ClientContext.
import type { ClientContext, ClientProblem, ClientVerdict } from '../../src/core/rules/rule.js';
import type { RuleCase } from './rule-table.js';

const CLIENT = {
  client: { id: 'fake', label: 'Fake CLI' },
  rulesCommand: 'mcp-annotation-auditor rules --client fake --write .fake/rules.json',
};

/** A tool `notes.<name>` of `cls` the class list maps to `expected`, and the client's verdict. */
export function toolCase(
  name: string,
  cls: 'read' | 'edit' | 'delete',
  expected: 'allow' | 'ask' | 'deny',
  verdict: ClientVerdict,
): RuleCase {
  const context: ClientContext = {
    ...CLIENT,
    tool: { name, named: `notes.${name}`, class: cls, expected, verdict },
  };
  return { client: context };
}

/** One problem of the client's files, with whether a recorded delete tool is exposed. */
export function problemCase(problem: ClientProblem, deleteExposed = false): RuleCase {
  return { client: { ...CLIENT, problem, deleteExposed } };
}

/** A rule of `.fake/rules.json` line 3 that decides `decision`. */
export const byRule = (decision: ClientVerdict['decision'], rule = 'notes.*'): ClientVerdict => ({
  decision,
  rule,
  file: '.fake/rules.json',
  line: 3,
});
