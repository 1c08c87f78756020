import { byRule, problemCase, toolCase } from '../../support/client-case.js';
import { ruleTable } from '../../support/rule-table.js';

ruleTable('rule-unset', {
  raises: [
    {
      name: 'a delete tool no rule decides, which the client asks about',
      case: toolCase('delete_note', 'delete', 'deny', {
        decision: 'ask',
        byClient: 'it asks by default',
      }),
      findings: [
        {
          tool: 'delete_note',
          severity: 'notice',
          message:
            'No rule of Fake CLI decides delete tool notes.delete_note: it asks each time (it asks by default); the class list maps it to deny.',
          fix: 'Run mcp-annotation-auditor rules --client fake --write .fake/rules.json.',
        },
      ],
    },
    {
      name: 'an edit tool the client hides by itself, as the mapping asks about it',
      case: toolCase('add_note', 'edit', 'ask', { decision: 'hidden' }),
      findings: [
        {
          message:
            'No rule of Fake CLI decides edit tool notes.add_note: it does not offer it (its default); the class list maps it to ask.',
        },
      ],
    },
    {
      name: 'an edit tool asked about by default, as mapped: the mapping is not repeated',
      case: toolCase('add_note', 'edit', 'ask', { decision: 'ask', file: 'f', line: 2 }),
      findings: [
        {
          message:
            'No rule of Fake CLI decides edit tool notes.add_note: it asks each time (its default in f line 2).',
        },
      ],
    },
  ],
  passes: [
    { name: 'a tool a rule decides', case: toolCase('add_note', 'edit', 'ask', byRule('ask')) },
    {
      name: 'a tool the client runs on its own (the allows rules say so)',
      case: toolCase('add_note', 'edit', 'ask', { decision: 'allow', byClient: 'auto' }),
    },
    {
      name: "a problem of the client's",
      case: problemCase({ kind: 'rule-stale', rule: 'x', file: 'f', why: 'y', fix: 'z' }),
    },
  ],
});
