// Identical findings on three or more tools are one row in the text and markdown reports: what
// makes two findings identical is the rule, severity, message, waiver and approval, each exactly,
// and a message or waiver reason the PR wrote (a tool's text, a config's reason) can never make
// two different findings share a row.
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/core/findings.js';
import { groupFindings } from '../../src/report/table.js';

const f = (tool: string, extra: Partial<Finding> = {}): Finding => ({
  rule: 'hint-dropped',
  severity: 'error',
  tool,
  message: 'readOnlyHint is gone.',
  ...extra,
});
const rows = (findings: Finding[]) =>
  groupFindings(findings).map((g) => [g.first.message, g.first.waived?.reason, g.tools]);

describe('groupFindings', () => {
  it('puts one finding on three tools in one row, at the place of the first', () => {
    const other = f('x', { rule: 'tool-added', severity: 'notice', message: 'New.' });
    expect(rows([f('a'), other, f('b'), f('c')])).toEqual([
      ['readOnlyHint is gone.', undefined, ['a', 'b', 'c']],
      ['New.', undefined, ['x']],
    ]);
  });

  it('keeps two tools of one finding as two rows', () => {
    expect(rows([f('a'), f('b')])).toHaveLength(2);
  });

  it('never groups findings that differ in message, reason, approval or severity, however written', () => {
    // Pairs a key made by joining the fields with a separator would confuse.
    const apart: Partial<Finding>[][] = [
      [
        { message: 'a b', waived: { reason: '' } },
        { message: 'a', waived: { reason: 'b ' } },
      ],
      [{ message: 'a wb' }, { message: 'a', waived: { reason: 'b' } }],
      [{ message: '3:x' }, { message: 'x' }],
      [
        { message: 'm w', waived: { reason: '' } },
        { message: 'm', waived: { reason: ' w' } },
      ],
      [{ approved: true }, {}],
      [{ severity: 'warning' }, {}],
      [{ waived: { reason: 'r' } }, {}],
    ];
    for (const [one, two] of apart) {
      const findings = ['a', 'b', 'c'].flatMap((t) => [f(t, one), f(`${t}2`, two)]);
      expect(groupFindings(findings), JSON.stringify([one, two])).toHaveLength(2);
    }
  });

  it('treats an approval left out as no approval', () => {
    expect(groupFindings([f('a', { approved: false }), f('b'), f('c')])).toHaveLength(1);
  });
});
