import { ALL_RULES } from '../core/rules.js';

/** A table cell: one line, its pipes escaped. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/**
 * The README's rules table, from the rules' files: each rule, its default severity, when it is
 * raised (and whether the approval label clears it), and what clears it.
 */
export function rulesTable(): string {
  return [
    '| rule | default | when | what clears it |',
    '| --- | --- | --- | --- |',
    ...ALL_RULES.map(
      (r) =>
        `| \`${r.id}\` | ${r.severity} | ${cell(r.summary)}${r.approvable ? ' (approvable)' : ''} | ${cell(r.clears)} |`,
    ),
  ].join('\n');
}
