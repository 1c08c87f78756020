import type { Reach, TitleSource, ToolClass } from './classify.js';
import type { RecordedHint, ToolRecord } from './classlist.js';
import { finding, type Finding } from './findings.js';
import { highestSeverity } from './rules.js';
import { hintText } from './text.js';
import { HINT_NAMES, type HintName } from './tools.js';

export interface HintMove {
  hint: HintName;
  before: RecordedHint;
  after: RecordedHint;
}

/** How one tool differs between two states of the tool surface. */
export interface ToolChange {
  kind: 'added' | 'removed' | 'renamed' | 'changed';
  /** Full name after the change (before, for a removed tool). */
  name: string;
  tool: string;
  /** Full name before a rename. */
  renamedFrom?: string;
  /**
   * A rename guessed from hints, not proven by the schema: see {@link probableRenames}. Its
   * reason is never carried over.
   */
  probable?: boolean;
  before?: ToolRecord;
  after?: ToolRecord;
  hints: HintMove[];
  titleChanged: boolean;
  /** The input schema differs: set only when asked for (drift), see {@link diffRecords}. */
  schemaChanged?: boolean;
}

/** Classes by risk: a move up the ranks is an escalation. */
export const CLASS_RANK: Record<ToolClass, number> = { read: 0, edit: 1, delete: 2 };

function hintMoves(before: ToolRecord, after: ToolRecord): HintMove[] {
  const moves: HintMove[] = [];
  for (const hint of HINT_NAMES)
    if (before.hints[hint] !== after.hints[hint])
      moves.push({ hint, before: before.hints[hint], after: after.hints[hint] });
  return moves;
}

function compare(
  name: string,
  before: ToolRecord,
  after: ToolRecord,
  withSchema: boolean,
): ToolChange | undefined {
  const hints = hintMoves(before, after);
  const titleChanged = before.title !== after.title || before.titleSource !== after.titleSource;
  const schemaChanged = withSchema && before.schema !== after.schema;
  if (
    !hints.length &&
    !titleChanged &&
    !schemaChanged &&
    before.class === after.class &&
    before.reach === after.reach
  )
    return undefined;
  const change: ToolChange = {
    kind: 'changed',
    name,
    tool: after.tool,
    before,
    after,
    hints,
    titleChanged,
  };
  if (schemaChanged) change.schemaChanged = true;
  return change;
}

/**
 * A change of the input schema alone: drift to record (the hash is what recognises a rename),
 * but no change of the tool surface a PR comment is about.
 */
export function isSchemaOnly(change: ToolChange): boolean {
  return (
    change.schemaChanged === true &&
    !change.hints.length &&
    !change.titleChanged &&
    change.before?.class === change.after?.class &&
    change.before?.reach === change.after?.reach
  );
}

/**
 * Differences between two tool surfaces (class list entries keyed by full name). A removed tool
 * and an added one with the same input schema, unique on both sides, are one rename. With
 * `schema`, a tool whose input schema changed is a change too (`schemaChanged`), even alone: the
 * live server against the class list at HEAD, where a stale hash would miss a later rename.
 */
export function diffRecords(
  before: Map<string, ToolRecord>,
  after: Map<string, ToolRecord>,
  options: { schema?: boolean } = {},
): ToolChange[] {
  const changes: ToolChange[] = [];
  const removed = [...before.keys()].filter((k) => !after.has(k));
  const added = [...after.keys()].filter((k) => !before.has(k));
  const renamed = new Set<string>();
  const rename = (pairs: [string, string][], probable: boolean) => {
    for (const [oldKey, newKey] of pairs) {
      renamed.add(oldKey).add(newKey);
      const [b, a] = [before.get(oldKey) as ToolRecord, after.get(newKey) as ToolRecord];
      changes.push(renameChange(oldKey, newKey, b, a, probable));
    }
  };
  rename(schemaRenames({ removed, added, before, after }), false);
  const unpaired = (keys: string[]) => keys.filter((k) => !renamed.has(k));
  rename(
    probableRenames({ removed: unpaired(removed), added: unpaired(added), before, after }),
    true,
  );
  for (const key of unpaired(removed))
    changes.push(oneSided('removed', key, before.get(key) as ToolRecord));
  for (const key of unpaired(added))
    changes.push(oneSided('added', key, after.get(key) as ToolRecord));
  for (const [key, b] of before) {
    const a = after.get(key);
    const change = a && compare(key, b, a, options.schema === true);
    if (change) changes.push(change);
  }
  return changes.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
}

/** The keys of these entries by their input schema's hash. */
function bySchema(keys: string[], side: Map<string, ToolRecord>): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const key of keys) {
    const schema = (side.get(key) as ToolRecord).schema;
    const group = groups.get(schema);
    if (group) group.push(key);
    else groups.set(schema, [key]);
  }
  return groups;
}

/** The tools a rename may pair: removed ones (keys of `before`) and added ones (of `after`). */
export interface RenameCandidates {
  removed: string[];
  added: string[];
  before: Map<string, ToolRecord>;
  after: Map<string, ToolRecord>;
}

/** A removed and an added tool with the same input schema, unique on both sides: a rename. */
export function schemaRenames({
  removed,
  added,
  before,
  after,
}: RenameCandidates): [string, string][] {
  const removedBySchema = bySchema(removed, before);
  const pairs: [string, string][] = [];
  for (const [schema, newKeys] of bySchema(added, after)) {
    const oldKeys = removedBySchema.get(schema);
    if (newKeys.length === 1 && oldKeys?.length === 1)
      pairs.push([oldKeys[0] as string, newKeys[0] as string]);
  }
  return pairs;
}

/** An added or a removed tool: its record on its one side. */
function oneSided(kind: 'added' | 'removed', name: string, record: ToolRecord): ToolChange {
  return {
    kind,
    name,
    tool: record.tool,
    ...(kind === 'removed' ? { before: record } : { after: record }),
    hints: [],
    titleChanged: false,
  };
}

/** A rename (or, across servers, a move) of `b` under `oldKey` to `a` under `newKey`. */
export function renameChange(
  oldKey: string,
  newKey: string,
  b: ToolRecord,
  a: ToolRecord,
  probable: boolean,
): ToolChange {
  return {
    kind: 'renamed',
    name: newKey,
    tool: a.tool,
    renamedFrom: oldKey,
    ...(probable ? { probable: true } : {}),
    before: b,
    after: a,
    hints: hintMoves(b, a),
    titleChanged: b.title !== a.title || b.titleSource !== a.titleSource,
  };
}

/**
 * Whether `after`, taken as `before` renamed, would drop one of its declared hints or relax its
 * class: what a rename with a schema change could otherwise hide as removed + added. Any hint
 * counts, not only the class-bearing ones: a dropped idempotentHint or openWorldHint is a
 * hint-dropped finding too, and removed + added would hide it.
 */
function wouldRelax(before: ToolRecord, after: ToolRecord): boolean {
  return (
    CLASS_RANK[after.class] < CLASS_RANK[before.class] ||
    HINT_NAMES.some((h) => before.hints[h] !== 'absent' && after.hints[h] === 'absent')
  );
}

/** How alike two tool names are: the length of their common prefix and suffix. */
function nameLikeness(a: string, b: string): number {
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < a.length - prefix &&
    suffix < b.length - prefix &&
    a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
  )
    suffix++;
  return prefix + suffix;
}

/**
 * The probable-rename heuristic: among the removed and added tools of one server that no schema
 * paired, each removed tool (in name order) is paired with the added tool that would drop one of
 * its declared hints or relax its class, the most alike by name first. A rename that also
 * changed the schema is then still judged as one tool, so hint-dropped and class-relaxed apply;
 * a removal and an unrelated addition that happen to fit are reported the same way, as probable,
 * which a reviewer can approve. With `across`, only pairs of two different servers (moves).
 */
export function probableRenames(
  { removed, added, before, after }: RenameCandidates,
  across = false,
): [string, string][] {
  const pairs: [string, string][] = [];
  const free = new Set([...added].sort());
  for (const oldKey of [...removed].sort()) {
    const b = before.get(oldKey) as ToolRecord;
    let best: { key: string; likeness: number } | undefined;
    for (const newKey of free) {
      const a = after.get(newKey) as ToolRecord;
      if ((a.server === b.server) === across || !wouldRelax(b, a)) continue;
      const likeness = nameLikeness(b.tool, a.tool);
      if (!best || likeness > best.likeness) best = { key: newKey, likeness };
    }
    if (best) {
      free.delete(best.key);
      pairs.push([oldKey, best.key]);
    }
  }
  return pairs;
}

export function describeMoves(moves: HintMove[]): string {
  return moves.map((m) => `${m.hint} ${hintText(m.before)} -> ${hintText(m.after)}`).join(', ');
}

function classWord(c: ToolClass, r: Reach): string {
  return `${c} (${r})`;
}

const TITLE_PLACES: Record<TitleSource, string> = {
  tool: 'Tool.title',
  annotations: 'annotations.title',
  none: 'the tool name',
};

type Titled = { title: string; titleSource: TitleSource };

/** How a title changed: its text, where it is set, or both (same text moved is still a move). */
export function describeTitleMove(before: Titled, after: Titled): string {
  const [from, to] = [TITLE_PLACES[before.titleSource], TITLE_PLACES[after.titleSource]];
  if (before.title === after.title)
    return `title ${JSON.stringify(after.title)} moved from ${from} to ${to}`;
  if (before.titleSource === after.titleSource)
    return `title ${JSON.stringify(before.title)} -> ${JSON.stringify(after.title)}`;
  return `title ${JSON.stringify(before.title)} (${from}) -> ${JSON.stringify(after.title)} (${to})`;
}

/**
 * Whether a rename carries the reviewed reason over: only when the class did not rise. A reason
 * written for a read tool says nothing about a delete tool that took its schema (every tool
 * without arguments shares one), so that one needs a new review.
 */
export function carriesReason(change: ToolChange): boolean {
  const { before, after } = change;
  return (
    change.kind === 'renamed' &&
    change.probable !== true &&
    movedFrom(change) === undefined &&
    before?.reason !== undefined &&
    after !== undefined &&
    CLASS_RANK[after.class] <= CLASS_RANK[before.class]
  );
}

/** What a rename does with the reviewed reason, for the findings that report it. */
function reasonNote(change: ToolChange, carried: string): string {
  const { before, after } = change;
  if (before?.reason === undefined || !after) return '';
  if (change.probable)
    return '; its reason is not carried over to a probable rename: review the tool and give it a reason';
  // Update writes each server's entries from its own: a reason never follows a tool elsewhere.
  if (movedFrom(change) !== undefined)
    return '; its reason is not carried over to another server: review the tool and give it a reason';
  return carriesReason(change)
    ? `; ${carried}`
    : `; its reason is not carried over because the class rose from ${before.class} to ${after.class}: review the tool and give it a new reason`;
}

/**
 * The server a rename's tool came from when it is another server's (a tool moved between
 * servers, see pairMoves); `undefined` for any other change.
 */
export function movedFrom(change: ToolChange): string | undefined {
  const { before, after } = change;
  return change.kind === 'renamed' && before && after && before.server !== after.server
    ? before.server
    : undefined;
}

/** The rules a PR's change of the tool surface triggers. */
export function changeFindings(changes: ToolChange[]): Finding[] {
  return changes.flatMap(toolChangeFindings);
}

/** The findings of one tool's change: added, removed, or changed (renamed or not). */
function toolChangeFindings(change: ToolChange): Finding[] {
  const { before, after, tool } = change;
  if (change.kind === 'added' && after)
    return [
      finding('tool-added', tool, `New tool, class ${classWord(after.class, after.reach)}.`, {
        fix: 'Check that the class matches what the tool does.',
      }),
    ];
  if (change.kind === 'removed' && before)
    return [
      finding('tool-removed', tool, `Removed; it was ${classWord(before.class, before.reach)}.`),
    ];
  if (!before || !after) return [];
  const out: Finding[] = [];
  if (change.kind === 'renamed') out.push(renameFinding(change, before));
  const dropped = change.hints.filter((m) => m.before !== 'absent' && m.after === 'absent');
  if (dropped.length)
    out.push(
      finding(
        'hint-dropped',
        tool,
        `${dropped.map((m) => `${m.hint} (was ${hintText(m.before)})`).join(', ')} no longer declared; clients now assume the default.`,
        {
          hints: dropped.map((m) => m.hint),
          fix: `Declare ${dropped.map((m) => `${m.hint}: ${hintText(m.before)}`).join(', ')} again, even where it equals the default. If dropping it is intended, the approval label (or a waiver with a reason) accepts it.`,
        },
      ),
    );
  const classChange = classChangeFinding(tool, before, after);
  if (classChange) out.push(classChange);
  if (before.reach === 'closed' && after.reach === 'open')
    out.push(
      finding(
        'reach-opened',
        tool,
        'Reach opened from closed to open world: it may now talk to external systems.',
        { fix: 'Confirm the tool should reach outside, or declare openWorldHint: false.' },
      ),
    );
  return out;
}

/**
 * A start-changed finding of the run (configRelaxations) moved under the audited server it names,
 * and each tool that server no longer lists raised from tool-removed to start-removed: the PR
 * changed the command audited, so "the tool is gone" may only mean the audited command no
 * longer lists it, while the one clients run still serves it. Returns the other findings.
 */
export function pairStartChanges(
  reports: { server: string; findings: Finding[]; changes: ToolChange[] }[],
  run: Finding[],
): Finding[] {
  return run.filter((f) => {
    const report =
      f.rule === 'start-changed' ? reports.find((r) => r.server === f.server) : undefined;
    if (!report) return true;
    const gone = report.changes.flatMap((c) =>
      c.kind === 'removed' && c.before ? [{ tool: c.tool, before: c.before }] : [],
    );
    const names = new Set(gone.map((c) => c.tool));
    report.findings = [
      ...report.findings.filter((r) => r.rule !== 'tool-removed' || !names.has(r.tool ?? '')),
      ...gone.map(({ tool, before }) =>
        finding(
          'start-removed',
          tool,
          `Gone in a PR that changes how this server is started (see start-changed); it was ${classWord(before.class, before.reach)}. The command clients run may still serve it.`,
          {
            fix: 'If the tool is really gone, a reviewer approves this with the approval label; otherwise restore how the server is started, or audit the command clients run.',
          },
        ),
      ),
      f,
    ];
    return false;
  });
}

/** A rename, proven by the schema or probable (which a reviewer is asked to confirm). */
function renameFinding(change: ToolChange, before: ToolRecord): Finding {
  const { tool } = change;
  if (movedFrom(change) !== undefined) return moveFinding(change, before);
  return finding(
    'tool-renamed',
    tool,
    change.probable
      ? `Probably renamed from ${before.tool}: ${before.tool} was removed and this tool, with another input schema, was added with ${before.tool}'s hints dropped or its class relaxed, so the two are compared as one tool${reasonNote(change, '')}.`
      : `Renamed from ${before.tool} (same input schema)${reasonNote(change, 'its reason is carried over')}.`,
    change.probable
      ? {
          fix: `If ${tool} is a new tool rather than ${before.tool} renamed, review what it declares and approve the findings with the approval label.`,
        }
      : {},
  );
}

/** A tool moved from one server to another: compared as one tool, as a rename is. */
function moveFinding(change: ToolChange, before: ToolRecord): Finding {
  const { tool, after } = change;
  const [from, to] = [JSON.stringify(before.server), JSON.stringify(after?.server ?? '')];
  const how =
    before.tool === tool
      ? 'same tool name'
      : change.probable
        ? `probably ${before.tool} renamed: another input schema, with ${before.tool}'s hints dropped or its class relaxed`
        : `renamed from ${before.tool}, same input schema`;
  return finding(
    'tool-renamed',
    tool,
    `Moved from server ${from} to server ${to} (${how}): it left ${from} and was added to ${to} in this change, so the two are compared as one tool${reasonNote(change, '')}.`,
    {
      fix: `If ${tool} on ${to} is a new tool rather than ${before.tool} moved from ${from}, review what it declares and approve the findings with the approval label.`,
    },
  );
}

/** A class that relaxed or escalated; `undefined` when it stayed. */
function classChangeFinding(
  tool: string,
  before: ToolRecord,
  after: ToolRecord,
): Finding | undefined {
  const rankBefore = CLASS_RANK[before.class];
  const rankAfter = CLASS_RANK[after.class];
  if (rankAfter < rankBefore) {
    const relaxed = finding(
      'class-relaxed',
      tool,
      `Class relaxed from ${before.class} to ${after.class}: clients will auto-approve what they used to ask about.`,
      {
        fix: `${
          after.class === 'edit'
            ? 'Confirm the tool no longer deletes or overwrites anything: it may still change data, but only by adding or updating.'
            : 'Confirm the tool really no longer modifies or destroys anything.'
        } If so, the approval label (or a waiver with a reason) accepts the relaxed class.`,
      },
    );
    // A delete tool that clients stop asking about is what the check exists to stop: it fails
    // the run (a reviewer approves it with the label), where edit to read only warns.
    if (before.class === 'delete') relaxed.severity = highestSeverity('class-relaxed');
    return relaxed;
  }
  if (rankAfter > rankBefore)
    return finding(
      'class-escalated',
      tool,
      `Class escalated from ${before.class} to ${after.class}.`,
    );
  return undefined;
}

/**
 * Live tools that differ from the class list at HEAD: one unrecorded-change per tool. A change of
 * the input schema alone is a notice: the spec's drift is tools, hints and titles, and failing
 * every PR that adds an argument would be noise; but recording it keeps renames recognised.
 */
export function driftFindings(
  changes: ToolChange[],
  updateCommand: string,
  classListPath: string,
): Finding[] {
  const fix = `Run \`${updateCommand}\` and commit ${classListPath}.`;
  return changes.map((change) => {
    if (isSchemaOnly(change))
      return {
        ...finding(
          'unrecorded-change',
          change.tool,
          "The live tool's input schema differs from the one the class list records (hints, class and title are unchanged).",
          {
            fix: `Run \`${updateCommand}\` and commit ${classListPath}: the recorded schema is how a later rename of the tool is recognised (and its reason carried over).`,
          },
        ),
        severity: 'notice',
      };
    let what: string;
    switch (change.kind) {
      case 'added':
        what = 'is served but not in the class list';
        break;
      case 'removed':
        what = 'is in the class list but no longer served';
        break;
      case 'renamed':
        what = `is served under a new name (${change.probable ? 'probably ' : ''}was ${change.before?.tool})${reasonNote(change, 'update carries its reason over')}`;
        break;
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
        what = `differs from the class list: ${parts.join('; ')}`;
        break;
      }
    }
    return finding('unrecorded-change', change.tool, `The live tool ${what}.`, { fix });
  });
}
