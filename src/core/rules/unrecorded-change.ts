import {
  describeMoves,
  describeTitleMove,
  isDescriptionOrSchemaOnly,
  isSchemaOnly,
  reasonNote,
  type ToolChange,
} from '../change.js';
import { plural } from '../text.js';
import { defineRule } from './rule.js';

/** The update command with --prune, which removes the entries of servers it does not audit. */
function withPrune(updateCommand: string): string {
  return updateCommand.replace(/(^|\s)update(\s|$)/, '$1update --prune$2');
}

/** How the live tool differs from its class-list entry, as the finding says it. */
function whatDiffers(change: ToolChange): string {
  switch (change.kind) {
    case 'added':
      return 'is served but not in the class list';
    case 'removed':
      return 'is in the class list but no longer served';
    case 'renamed':
      return `is served under a new name (${change.probable ? 'probably ' : ''}was ${change.before?.tool})${reasonNote(change, 'update carries its reason over')}`;
    case 'changed': {
      const parts: string[] = [];
      if (change.hints.length) parts.push(describeMoves(change.hints));
      if (change.before?.class !== change.after?.class)
        parts.push(`class ${change.before?.class} -> ${change.after?.class}`);
      if (change.before?.reach !== change.after?.reach)
        parts.push(`reach ${change.before?.reach} -> ${change.after?.reach}`);
      if (change.titleChanged && change.before && change.after)
        parts.push(describeTitleMove(change.before, change.after));
      if (change.schemaChanged) parts.push('input schema changed');
      return `differs from the class list: ${parts.join('; ')}`;
    }
  }
}

export default defineRule({
  id: 'unrecorded-change',
  severity: 'error',
  approvable: false,
  drift: true,
  summary: 'live tools differ from the class list: run update and commit',
  clears: '`update` and a commit of the class list (the command is printed)',
  check: [
    {
      phase: 'drift',
      run: ({ change, updateCommand, classList }, raise) => {
        // A change of the input schema alone is a notice: the spec's drift is tools, hints and
        // titles, and failing every PR that adds an argument would be noise; but recording it
        // keeps renames recognised.
        // So is a description that differs alone: a reviewer reads it (description-changed).
        if (isDescriptionOrSchemaOnly(change) && change.descriptionChanged) {
          const f = raise(
            change.tool,
            `The live tool's description differs from the one the class list pins${change.inputSchemaChanged ? ', and so does its input schema' : ''} (hints, class and title are unchanged).`,
            {
              fix: `Read the new description (see description-changed), then run \`${updateCommand}\` and commit ${classList}: the class list then pins the version reviewed.`,
            },
          );
          f.severity = 'notice';
          return [f];
        }
        if (isSchemaOnly(change)) {
          const f = raise(
            change.tool,
            "The live tool's input schema differs from the one the class list records (hints, class and title are unchanged).",
            {
              fix: `Run \`${updateCommand}\` and commit ${classList}: the recorded schema is how a later rename of the tool is recognised (and its reason carried over).`,
            },
          );
          f.severity = 'notice';
          return [f];
        }
        return [
          raise(change.tool, `The live tool ${whatDiffers(change)}.`, {
            fix: `Run \`${updateCommand}\` and commit ${classList}.`,
          }),
        ];
      },
    },
    {
      // Of the run: class-list servers no audited server answers to, or no class list at all.
      phase: 'run',
      run: ({ unauditedServers: stale, noClassList }, raise) => [
        ...(stale?.servers ?? []).map(({ server, tools }) =>
          raise(
            undefined,
            `The class list records ${plural(tools, 'tool')} of server "${server}", but no audited server has that name (this run audited ${stale?.audited.map((a) => `"${a}"`).join(', ')}).`,
            {
              fix: `If the server was renamed, ${stale?.single ? `pin its name with --server-name ${server} (the server-name input)` : `give it back its name (its key in the config file)`}; otherwise remove its entries with \`${withPrune(stale?.updateCommand ?? '')}\` and commit ${stale?.classList}.`,
            },
          ),
        ),
        ...(noClassList
          ? [
              raise(undefined, `There is no class list at ${noClassList.classList} yet.`, {
                fix: `Run \`${noClassList.updateCommand}\`, review the file, and commit ${noClassList.classList}.`,
              }),
            ]
          : []),
      ],
    },
  ],
});
