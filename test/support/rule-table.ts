// A rule's table test: cases that must raise it (with the findings they raise) and cases that
// must not, each run through the rule's own check in its phase, as the audit runs it.
import { describe, expect, it } from 'vitest';
import { classifyTool } from '../../src/core/classify.js';
import { toRecord, type ToolRecord } from '../../src/core/classlist.js';
import { diffRecords } from '../../src/core/diff.js';
import type { Finding } from '../../src/core/findings.js';
import { RULES, type RuleId } from '../../src/core/rules.js';
import {
  checksOf,
  findingOf,
  type ClientContext,
  type Phases,
  type RunContext,
} from '../../src/core/rules/rule.js';
import type { ListedTool, MalformedTool } from '../../src/core/tools.js';

/**
 * A case: one tool; one listing; a change from one listing to another (server `s`); the class
 * list's tools and the live ones (drift, with `update` and `c.json`); a listing in each era; a
 * fact of the run; or a client's verdict on a tool or one of its problems.
 */
export type RuleCase =
  | { tool: ListedTool }
  | { tools: ListedTool[]; malformed?: MalformedTool[] }
  | { before: ListedTool[]; after: ListedTool[] }
  | { recorded: ListedTool[]; live: ListedTool[] }
  | { legacy: ListedTool[]; modern: ListedTool[]; malformed?: string[] }
  | { run: RunContext }
  | { client: ClientContext };

function records(server: string, tools: ListedTool[]): Map<string, ToolRecord> {
  return new Map(
    tools.map((t) => [`mcp__${server}__${t.name}`, toRecord(server, classifyTool(t))]),
  );
}

/** The findings the rule's check raises for a case. */
export function raisedBy(id: RuleId, c: RuleCase): Finding[] {
  const rule = RULES[id];
  const checks = checksOf(rule);
  if (!checks.length) throw new Error(`${id} has no check`);
  const raise = (tool: string | undefined, message: string, extra?: Partial<Finding>) =>
    findingOf(rule, tool, message, extra);
  // A change case may hold no change at all (a tool kept): its check then runs on none.
  const contexts: { [P in keyof Phases]: () => Phases[P][] | undefined } = {
    tool: () => ('tool' in c ? [{ tool: classifyTool(c.tool) }] : undefined),
    listing: () =>
      'tools' in c
        ? [{ tools: c.tools.map(classifyTool), malformed: c.malformed ?? [] }]
        : undefined,
    change: () =>
      'before' in c
        ? diffRecords(records('s', c.before), records('s', c.after)).map((change) => ({ change }))
        : undefined,
    drift: () =>
      'recorded' in c
        ? diffRecords(records('s', c.recorded), records('s', c.live), { schema: true }).map(
            (change) => ({ change, updateCommand: 'update', classList: 'c.json' }),
          )
        : undefined,
    eras: () =>
      'legacy' in c
        ? [
            {
              legacy: c.legacy.map(classifyTool),
              modern: c.modern.map(classifyTool),
              malformed: new Set(c.malformed),
            },
          ]
        : undefined,
    run: () => ('run' in c ? [c.run] : undefined),
    client: () => ('client' in c ? [c.client] : undefined),
  };
  // A rule with a check in several phases (unrecorded-change: drift and run) runs those the
  // case gives.
  const given = checks.flatMap((check) => {
    const found = contexts[check.phase]();
    return found ? [{ check, found }] : [];
  });
  if (!given.length)
    throw new Error(
      `a case of ${id} must give its ${checks.map((c) => c.phase).join(' or ')} phase`,
    );
  return given.flatMap(({ check, found }) =>
    found.flatMap((context: unknown) =>
      (check.run as (context: unknown, r: typeof raise) => Finding[])(context, raise),
    ),
  );
}

/** What a finding says, without the rule's id (every finding of the table is the rule's). */
type Said = Partial<Omit<Finding, 'rule'>>;

/**
 * The rule's table: each `raises` case files exactly the findings listed (each compared on the
 * fields given), each `passes` case files none.
 */
export function ruleTable(
  id: RuleId,
  table: {
    raises: { name: string; case: RuleCase; findings: Said[] }[];
    passes: { name: string; case: RuleCase }[];
  },
): void {
  describe(`rule ${id}`, () => {
    it.each(table.raises)('raises it: $name', ({ case: c, findings }) => {
      const got = raisedBy(id, c);
      expect(got.map((f) => f.rule)).toEqual(findings.map(() => id));
      expect(got).toEqual(findings.map((f): unknown => expect.objectContaining(f)));
    });
    it.each(table.passes)('does not raise it: $name', ({ case: c }) => {
      expect(raisedBy(id, c)).toEqual([]);
    });
  });
}
