// The registry is the one list of rules: every file of src/core/rules/ is in it under its own
// name, and what the table, SARIF and the config know of a rule comes from that file.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_RULES, isRuleId, RULE_IDS, RULES } from '../../../src/core/rules.js';
import { sarifRule } from '../../../src/report/sarif.js';
import { rulesTable } from '../../../src/report/rules-table.js';

const DIR = join(import.meta.dirname, '../../../src/core/rules');

describe('the rule registry', () => {
  it('lists every rule file once, under the id its file is named after', async () => {
    const files = (await readdir(DIR)).filter((f) => f.endsWith('.ts') && f !== 'rule.ts');
    expect(RULE_IDS.map((id) => `${id}.ts`).sort()).toEqual(files.sort());
    expect(new Set(RULE_IDS).size).toBe(RULE_IDS.length);
  });

  it('every rule with a check has its table test beside this file', async () => {
    const tests = new Set(await readdir(import.meta.dirname));
    for (const rule of ALL_RULES)
      if (rule.check) expect(tests.has(`${rule.id}.test.ts`), rule.id).toBe(true);
  });

  it('every rule says when it is raised and what clears it; the label is named where it clears', () => {
    for (const rule of ALL_RULES) {
      expect(rule.summary.length, rule.id).toBeGreaterThan(5);
      expect(rule.clears.length, rule.id).toBeGreaterThan(5);
      if (rule.approvable) expect(rule.clears, rule.id).toMatch(/the label/);
      else expect(rule.clears, rule.id).not.toMatch(/(^|, |or )the label/);
    }
  });

  it('knows a rule id from any other string', () => {
    expect(isRuleId('hint-dropped')).toBe(true);
    expect(isRuleId('hasOwnProperty')).toBe(false);
    expect(RULES['class-relaxed'].highest).toBe('error');
  });

  it("derives SARIF's rule metadata and the README's rows from the rule's file", () => {
    expect(sarifRule(RULES['hint-dropped'])).toEqual({
      id: 'hint-dropped',
      shortDescription: {
        text: 'a hint declared before is absent now (a tool removed beside a newcomer lacking it included)',
      },
      help: {
        text: 'What clears it: declare the hint again with the value it had; if the drop is intended, the label or a waiver (locally, update and a commit, since the CLI then compares with HEAD).',
        markdown:
          'What clears it: declare the hint again with the value it had; if the drop is intended, the label or a waiver (locally, `update` and a commit, since the CLI then compares with HEAD).',
      },
      defaultConfiguration: { level: 'error' },
    });
    expect(rulesTable().split('\n')).toContain(
      '| `class-escalated` | notice | read to edit/delete, or edit to delete | nothing to clear (a notice): `update` records it |',
    );
    expect(rulesTable().split('\n')).toHaveLength(RULE_IDS.length + 2);
  });
});
