import { describeMoves, describeTitleMove, hintMoves } from '../change.js';
import type { ClassifiedTool } from '../classify.js';
import { toRecord } from '../classlist.js';
import type { Raise } from './rule.js';
import { defineRule } from './rule.js';

/** How one tool's annotations differ between the eras (legacy -> modern), if they do. */
function differences(legacy: ClassifiedTool, modern: ClassifiedTool, raise: Raise) {
  const [before, after] = [toRecord('s', legacy), toRecord('s', modern)];
  const hints = hintMoves(before, after);
  const titleChanged = before.title !== after.title || before.titleSource !== after.titleSource;
  if (!hints.length && !titleChanged) return [];
  const moved = [describeMoves(hints), titleChanged ? describeTitleMove(legacy, modern) : ''];
  return [
    raise(
      legacy.name,
      `Annotations differ between eras (legacy -> modern): ${moved.filter(Boolean).join('; ')}.`,
      { hints: hints.map((m) => m.hint) },
    ),
  ];
}

export default defineRule({
  id: 'era-mismatch',
  severity: 'warning',
  approvable: false,
  summary: "a tool's annotations differ between protocol eras",
  clears: 'declare the same annotations in both eras',
  // A tool malformed in either era is left out of "listed in one era but not the other": its
  // malformed-tool finding already covers it.
  check: {
    phase: 'eras',
    run: ({ legacy, modern, malformed }, raise) => {
      const modernByName = new Map(modern.map((t) => [t.name, t]));
      const legacyNames = new Set(legacy.map((t) => t.name));
      const out = legacy.flatMap((tool) => {
        const other = modernByName.get(tool.name);
        if (other) return differences(tool, other, raise);
        return malformed.has(tool.name)
          ? []
          : [raise(tool.name, 'Listed in the legacy era but not in the modern era.')];
      });
      for (const tool of modern)
        if (!legacyNames.has(tool.name) && !malformed.has(tool.name))
          out.push(raise(tool.name, 'Listed in the modern era but not in the legacy era.'));
      return out;
    },
  },
});
