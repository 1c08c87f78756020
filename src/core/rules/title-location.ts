import { titlesOf } from '../classify.js';
import { defineRule } from './rule.js';

export default defineRule({
  id: 'title-location',
  severity: 'warning',
  approvable: false,
  // A point of the Claude directory's checklist: checked where that profile is on.
  policy: 'claude',
  summary: 'the title is only in Tool.title, not in annotations.title',
  clears: 'also set `annotations.title`',
  check: {
    phase: 'tool',
    run: ({ tool }, raise) => {
      const titles = titlesOf(tool);
      if (!titles.inTool || titles.inAnnotations) return [];
      return [
        raise(
          tool.name,
          `The title is only in Tool.title${tool.annotationsTitle !== undefined ? ' (annotations.title is blank)' : ''}; the Claude directory's checklist reads annotations.title.`,
          { fix: 'Also set annotations.title.' },
        ),
      ];
    },
  },
});
