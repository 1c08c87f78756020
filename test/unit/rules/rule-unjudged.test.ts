import { problemCase, toolCase, byRule } from '../../support/client-case.js';
import { ruleTable } from '../../support/rule-table.js';

ruleTable('rule-unjudged', {
  raises: [
    {
      name: 'a setting the check does not judge, named as its file writes it, an error',
      case: problemCase({
        kind: 'rule-unjudged',
        rule: '"agent": { "build": { "permission": ... } }',
        file: 'opencode.json',
        line: 4,
        why: 'an agent’s own permission overrides the global one',
        fix: 'Move the rules to the global "permission".',
      }),
      findings: [
        {
          severity: 'error',
          message:
            'Fake CLI: "agent": { "build": { "permission": ... } } in opencode.json line 4 is not judged by the check: an agent’s own permission overrides the global one.',
          fix: 'Move the rules to the global "permission".',
          location: { file: 'opencode.json', line: 4 },
        },
      ],
    },
  ],
  passes: [
    {
      name: 'another kind of problem',
      case: problemCase({
        kind: 'rule-ignored',
        file: 'f',
        why: 'w',
        fix: 'x',
      }),
    },
    {
      name: 'a tool the client decides',
      case: toolCase('delete_note', 'delete', 'deny', byRule('deny')),
    },
  ],
});
