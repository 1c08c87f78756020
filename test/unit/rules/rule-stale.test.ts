import { byRule, problemCase, toolCase } from '../../support/client-case.js';
import { ruleTable } from '../../support/rule-table.js';

ruleTable('rule-stale', {
  raises: [
    {
      name: 'a rule naming a server the class list does not record',
      case: problemCase({
        kind: 'rule-stale',
        rule: 'deny rule "mcp__gone"',
        file: '.fake/rules.json',
        line: 5,
        why: 'server "gone", which the class list does not record',
        fix: 'A typo or a removed tool: fix the name, or remove the rule.',
      }),
      findings: [
        {
          severity: 'notice',
          message:
            'Fake CLI: deny rule "mcp__gone" in .fake/rules.json line 5 names server "gone", which the class list does not record.',
          fix: 'A typo or a removed tool: fix the name, or remove the rule.',
          location: { file: '.fake/rules.json', line: 5 },
        },
      ],
    },
  ],
  passes: [
    {
      name: 'a rule the client skips (rule-ignored)',
      case: problemCase({ kind: 'rule-ignored', rule: 'x', file: 'f', why: 'y', fix: 'z' }),
    },
    {
      name: 'a tool no rule decides',
      case: toolCase('add_note', 'edit', 'ask', { decision: 'ask' }),
    },
    { name: 'a tool a rule decides', case: toolCase('add_note', 'edit', 'ask', byRule('ask')) },
  ],
});
