import { byRule, problemCase, toolCase } from '../../support/client-case.js';
import { ruleTable } from '../../support/rule-table.js';

ruleTable('rule-ignored', {
  raises: [
    {
      name: 'a rule the client skips, named as its file writes it',
      case: problemCase({
        kind: 'rule-ignored',
        rule: 'allow rule "mcp__*"',
        file: '.fake/rules.json',
        line: 4,
        why: 'a glob over server names is not read',
        fix: 'Write "mcp__notes".',
      }),
      findings: [
        {
          severity: 'warning',
          message:
            'Fake CLI: allow rule "mcp__*" in .fake/rules.json line 4 is ignored: a glob over server names is not read.',
          fix: 'Write "mcp__notes".',
          location: { file: '.fake/rules.json', line: 4 },
        },
      ],
    },
    {
      name: 'a whole file the client does not load, at its first line',
      case: problemCase({
        kind: 'rule-ignored',
        file: '.fake/policies/a.toml',
        why: 'the client loads no policy from a workspace',
        fix: 'Move it.',
      }),
      findings: [
        {
          message:
            'Fake CLI: .fake/policies/a.toml line 1 is ignored: the client loads no policy from a workspace.',
          location: { file: '.fake/policies/a.toml', line: 1 },
        },
      ],
    },
  ],
  passes: [
    {
      name: 'a rule that names nothing recorded (rule-stale)',
      case: problemCase({ kind: 'rule-stale', rule: 'x', file: 'f', why: 'y', fix: 'z' }),
    },
    { name: "a tool's verdict", case: toolCase('add_note', 'edit', 'ask', byRule('allow')) },
  ],
});
