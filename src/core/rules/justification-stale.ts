import { terminalSafe } from '../../escape.js';
import { declaredText, staleHints } from '../justifications.js';
import { list } from '../text.js';
import { defineRule } from './rule.js';

// An error, not approvable: the file is what is submitted to OpenAI, and a justification of a
// hint the server no longer declares is a false claim; no label makes it true again.
export default defineRule({
  id: 'justification-stale',
  severity: 'error',
  approvable: false,
  summary:
    "openai policy: a hint in the justifications file differs from the server's: the submitted claim is now false",
  clears:
    'rewrite the justification named and set the hint (`justifications --write FILE` sets it and marks the text to rewrite), or a waiver',
  check: {
    phase: 'run',
    run: ({ justifications: facts }, raise) =>
      (facts?.tools ?? []).flatMap((t) => {
        const stale = t.entry ? staleHints(t.entry, t.live, t.base) : [];
        if (!stale.length) return [];
        const file = terminalSafe(facts?.file ?? '', 200);
        const said = stale.map((s) =>
          s.unrewritten
            ? `${s.hint} is ${declaredText(s.live)} now, and ${s.key} is the base's, written for ${declaredText(s.claimed)}`
            : `${file} declares ${s.hint}: ${declaredText(s.claimed)}, the server ${declaredText(s.live)}`,
        );
        return [
          raise(t.tool, `${said.join('; ')}: the justification submitted to OpenAI is now false.`, {
            hints: stale.map((s) => s.hint),
            fix: `Rewrite ${list(stale.map((s) => s.key))} in ${file} for the hint as the server declares it now, and set the hint there (justifications --write ${file} sets it and marks the text to rewrite).`,
            server: t.server,
          }),
        ];
      }),
  },
});
