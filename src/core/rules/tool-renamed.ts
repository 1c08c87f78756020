import type { ToolRecord } from '../classlist.js';
import { movedFrom, reasonNote, type ToolChange } from '../change.js';
import { defineRule } from './rule.js';

/** A rename, proven by the schema or probable (which a reviewer is asked to confirm). */
function renameText(change: ToolChange, before: ToolRecord): [string, string | undefined] {
  const { tool } = change;
  return change.probable
    ? [
        `Probably renamed from ${before.tool}: ${before.tool} was removed and this tool, with another input schema, was added with ${before.tool}'s hints dropped or its class relaxed, so the two are compared as one tool${reasonNote(change, '')}.`,
        `If ${tool} is a new tool rather than ${before.tool} renamed, review what it declares and approve the findings with the approval label.`,
      ]
    : [
        `Renamed from ${before.tool} (same input schema)${reasonNote(change, 'its reason is carried over')}.`,
        undefined,
      ];
}

/** A tool moved from one server to another: compared as one tool, as a rename is. */
function moveText(change: ToolChange, before: ToolRecord): [string, string] {
  const { tool, after } = change;
  const [from, to] = [JSON.stringify(before.server), JSON.stringify(after?.server ?? '')];
  const how =
    before.tool === tool
      ? 'same tool name'
      : change.probable
        ? `probably ${before.tool} renamed: another input schema, with ${before.tool}'s hints dropped or its class relaxed`
        : `renamed from ${before.tool}, same input schema`;
  return [
    `Moved from server ${from} to server ${to} (${how}): it left ${from} and was added to ${to} in this change, so the two are compared as one tool${reasonNote(change, '')}.`,
    `If ${tool} on ${to} is a new tool rather than ${before.tool} moved from ${from}, review what it declares and approve the findings with the approval label.`,
  ];
}

export default defineRule({
  id: 'tool-renamed',
  severity: 'notice',
  approvable: false,
  summary:
    'same input schema under a new name; a probable rename (a removed and an added tool whose declared hints were dropped or whose class relaxed); or a tool moved from one server to another (same name, same schema, or probable); a reason is carried over only for a same-schema rename within one server whose class did not rise',
  clears: 'nothing to clear (a notice): `update` records it; review its class',
  check: [
    {
      phase: 'change',
      run: ({ change }, raise) => {
        const { before, after } = change;
        if (change.kind !== 'renamed' || !before || !after) return [];
        const [message, fix] =
          movedFrom(change) !== undefined ? moveText(change, before) : renameText(change, before);
        return [raise(change.tool, message, fix !== undefined ? { fix } : {})];
      },
    },
    {
      // A whole server compared under the name the base records it by: said, so that a
      // reviewer sees the rename, with how to keep the name stable. `unnamed`: nothing named
      // the server, so its name came from the server itself.
      phase: 'run',
      run: ({ renamedServer: renamed }, raise) => {
        if (!renamed) return [];
        const { from, name, unnamed } = renamed;
        return [
          raise(
            undefined,
            unnamed
              ? `The server now calls itself "${name}"; the base class list records its tools under "${from}". They are compared as one server.`
              : `The base class list records this server's tools under "${from}", and no server of that name is audited now: "${name}" is taken as "${from}" renamed, and compared with it tool by tool.`,
            {
              fix: unnamed
                ? 'Pin the name with --server-name (the server-name input) so the class list keys stay stable.'
                : `If "${from}" was renamed on purpose, nothing more is needed; else give the server back its name (its key in the config file).`,
            },
          ),
        ];
      },
    },
  ],
});
