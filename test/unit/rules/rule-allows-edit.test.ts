import { byRule, problemCase, toolCase } from '../../support/client-case.js';
import { ruleTable } from '../../support/rule-table.js';

ruleTable('rule-allows-edit', {
  raises: [
    {
      name: 'a rule that lets an edit tool mapped to ask run',
      case: toolCase('add_note', 'edit', 'ask', byRule('allow')),
      findings: [
        {
          tool: 'add_note',
          severity: 'warning',
          message:
            'edit tool notes.add_note: in Fake CLI, "notes.*" in .fake/rules.json line 3 lets it run without asking; the class list maps it to ask.',
          fix: 'Run mcp-annotation-auditor rules --client fake --write .fake/rules.json, or fix the rule by hand.',
          location: { file: '.fake/rules.json', line: 3 },
        },
      ],
    },
    {
      name: 'the client running an edit tool from its annotations, with the rule that said so',
      case: toolCase('add_note', 'edit', 'deny', {
        ...byRule('allow', 'auto'),
        byClient: 'destructiveHint false',
      }),
      findings: [
        {
          message:
            'edit tool notes.add_note: in Fake CLI, "auto" in .fake/rules.json line 3 (destructiveHint false) lets it run without asking; the class list maps it to deny.',
        },
      ],
    },
  ],
  passes: [
    {
      name: 'an edit tool the per-tool mapping allows',
      case: toolCase('add_note', 'edit', 'allow', byRule('allow')),
    },
    { name: 'an edit tool asked about', case: toolCase('add_note', 'edit', 'ask', byRule('ask')) },
    { name: 'an edit tool hidden', case: toolCase('add_note', 'edit', 'ask', byRule('hidden')) },
    { name: 'a read tool allowed', case: toolCase('list_notes', 'read', 'ask', byRule('allow')) },
    {
      name: 'a delete tool allowed',
      case: toolCase('delete_note', 'delete', 'deny', byRule('allow')),
    },
    {
      name: "a problem of the client's",
      case: problemCase({ kind: 'rule-ignored', rule: 'x', file: 'f', why: 'y', fix: 'z' }, true),
    },
  ],
});
