import { terminalSafe } from '../../escape.js';
import { JUSTIFIED, isPlaceholder, staleHints } from '../justifications.js';
import { list } from '../text.js';
import { defineRule } from './rule.js';

export default defineRule({
  id: 'justification-placeholder',
  severity: 'warning',
  approvable: false,
  summary:
    'openai policy: a justification in the hint justifications file is empty or still a placeholder',
  clears: 'write the justification (a person, never the auditor), or a waiver',
  check: {
    phase: 'run',
    run: ({ justifications: facts }, raise) =>
      (facts?.tools ?? []).flatMap((t) => {
        const entry = t.entry;
        if (!entry) return [];
        // A stale hint's justification is justification-stale's to report.
        const stale = new Set(staleHints(entry, t.live, t.base).map((s) => s.key));
        const open = JUSTIFIED.filter(
          ([, key]) => !stale.has(key) && isPlaceholder(entry.justifications[key]),
        );
        if (!open.length) return [];
        const keys = open.map(([, key]) => key);
        const file = terminalSafe(facts?.file ?? '', 200);
        return [
          raise(
            t.tool,
            `${list(keys)} in ${file} ${keys.length === 1 ? 'is' : 'are'} still to be written.`,
            {
              hints: open.map(([hint]) => hint),
              fix: `Write why each hint holds for this tool in ${list(keys)}; the auditor never writes a justification.`,
              server: t.server,
            },
          ),
        ];
      }),
  },
});
