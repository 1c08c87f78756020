import { byRule, problemCase, toolCase } from '../../support/client-case.js';
import { ruleTable } from '../../support/rule-table.js';

ruleTable('rule-allows-delete', {
  raises: [
    {
      name: 'a rule that lets a delete tool mapped to deny run',
      case: toolCase('delete_note', 'delete', 'deny', byRule('allow')),
      findings: [
        {
          tool: 'delete_note',
          severity: 'error',
          message:
            'delete tool notes.delete_note: in Fake CLI, "notes.*" in .fake/rules.json line 3 lets it run without asking; the class list maps it to deny.',
          fix: 'Run mcp-annotation-auditor rules --client fake --write .fake/rules.json, or fix the rule by hand.',
          location: { file: '.fake/rules.json', line: 3 },
        },
      ],
    },
    {
      name: 'the client running a delete tool mapped to ask on its own, unlocated',
      case: toolCase('delete_note', 'delete', 'ask', {
        decision: 'allow',
        byClient: 'its default: no rule, runs unasked',
      }),
      findings: [
        {
          message:
            'delete tool notes.delete_note: in Fake CLI, its default: no rule, runs unasked lets it run without asking; the class list maps it to ask.',
        },
      ],
    },
    {
      name: 'an allow that holds on what the check assumes, which it says',
      case: {
        client: {
          client: { id: 'fake', label: 'Fake CLI' },
          rulesCommand: 'r',
          tool: {
            name: 'delete_note',
            named: 'notes.delete_note',
            class: 'delete',
            expected: 'deny',
            verdict: { decision: 'allow', rule: 'notes.*', file: 'f', line: 1 },
            assumes: 'once the workspace is trusted',
          },
        },
      },
      findings: [
        {
          message:
            'delete tool notes.delete_note: in Fake CLI, "notes.*" in f line 1 lets it run without asking (once the workspace is trusted); the class list maps it to deny.',
        },
      ],
    },
  ],
  passes: [
    {
      name: 'a delete tool the per-tool mapping allows',
      case: toolCase('delete_note', 'delete', 'allow', byRule('allow')),
    },
    {
      name: 'a delete tool denied',
      case: toolCase('delete_note', 'delete', 'deny', byRule('deny')),
    },
    {
      name: 'a delete tool asked about',
      case: toolCase('delete_note', 'delete', 'deny', byRule('ask')),
    },
    { name: 'an edit tool allowed', case: toolCase('add_note', 'edit', 'ask', byRule('allow')) },
    {
      name: "a problem of the client's",
      case: problemCase({ kind: 'rule-stale', rule: 'x', file: 'f', why: 'y', fix: 'z' }, true),
    },
  ],
});
