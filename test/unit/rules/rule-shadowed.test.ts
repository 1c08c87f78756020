import { byRule, problemCase, toolCase } from '../../support/client-case.js';
import { ruleTable } from '../../support/rule-table.js';

ruleTable('rule-shadowed', {
  raises: [
    {
      name: 'an allow rule a broader deny decides first',
      case: problemCase({
        kind: 'rule-shadowed',
        rule: 'allow rule "mcp__notes__add"',
        file: '.fake/rules.json',
        line: 6,
        why: 'mcp__notes__add is decided first by deny rule "mcp__notes" in .fake/rules.json line 2',
        fix: 'Remove the allow rule, or narrow the broader rule.',
      }),
      findings: [
        {
          severity: 'notice',
          message:
            'Fake CLI: allow rule "mcp__notes__add" in .fake/rules.json line 6 decides nothing: mcp__notes__add is decided first by deny rule "mcp__notes" in .fake/rules.json line 2.',
          location: { file: '.fake/rules.json', line: 6 },
        },
      ],
    },
  ],
  passes: [
    {
      name: 'a rule that names nothing recorded (rule-stale)',
      case: problemCase({ kind: 'rule-stale', rule: 'x', file: 'f', why: 'y', fix: 'z' }),
    },
    { name: 'a tool denied', case: toolCase('add_note', 'edit', 'ask', byRule('deny')) },
  ],
});
