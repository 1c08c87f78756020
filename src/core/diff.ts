import { compareText } from './order.js';
import { CLASS_RANK, hintMoves, type ToolChange } from './change.js';
import type { ToolRecord } from './classlist.js';
import type { Finding } from './findings.js';
import { runChecks } from './rules.js';
import { HINT_NAMES } from './tools.js';
import { pinChanges } from './pins.js';

// The change and its words moved to core/change.ts (a leaf the rules' checks read); they are
// still reached through here.
export {
  CLASS_RANK,
  carriesReason,
  describeMoves,
  describeTitleMove,
  isDescriptionOrSchemaOnly,
  isSchemaOnly,
  movedFrom,
  type HintMove,
  type ToolChange,
} from './change.js';

function compare(
  name: string,
  before: ToolRecord,
  after: ToolRecord,
  withSchema: boolean,
): ToolChange | undefined {
  const hints = hintMoves(before, after);
  const titleChanged = before.title !== after.title || before.titleSource !== after.titleSource;
  const schemaChanged = withSchema && before.schema !== after.schema;
  const pins = pinChanges(before.pin, after.pin);
  if (
    !hints.length &&
    !titleChanged &&
    !schemaChanged &&
    !pins.description &&
    !pins.inputSchema &&
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
  return withPins(change);
}

/** The change with what its pins say changed (the description, the input schema), if any. */
function withPins(change: ToolChange): ToolChange {
  const pins = pinChanges(change.before?.pin, change.after?.pin);
  if (pins.description) change.descriptionChanged = pins.description;
  if (pins.inputSchema) change.inputSchemaChanged = pins.inputSchema;
  return change;
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
  markSuccessors(changes);
  return changes.sort((x, y) => compareText(x.name, y.name));
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

/** What {@link relaxation} reads of a tool, on either side: its class and which hints it declares. */
function kindOf(record: ToolRecord): string {
  return `${record.class}:${HINT_NAMES.map((h) => (record.hints[h] === 'absent' ? 0 : 1)).join('')}`;
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
  return withPins({
    kind: 'renamed',
    name: newKey,
    tool: a.tool,
    renamedFrom: oldKey,
    ...(probable ? { probable: true } : {}),
    before: b,
    after: a,
    hints: hintMoves(b, a),
    titleChanged: b.title !== a.title || b.titleSource !== a.titleSource,
  });
}

/**
 * How much `after`, taken as `before` renamed, would relax it: the classes it falls (times 8),
 * plus the declared hints it drops; 0 when it relaxes nothing. Any hint counts, not only the
 * class-bearing ones: a dropped idempotentHint or openWorldHint is a hint-dropped finding too,
 * and removed + added would hide it.
 */
function relaxation(before: ToolRecord, after: ToolRecord): number {
  const fall = classFall(before, after);
  const dropped = HINT_NAMES.filter(
    (h) => before.hints[h] !== 'absent' && after.hints[h] === 'absent',
  ).length;
  return fall * 8 + dropped;
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

/** Up to this many equal candidates are weighed by name likeness; more are taken in name order. */
const LIKENESS_MAX = 256;

/**
 * The probable-rename heuristic: among the removed and added tools of one server that no schema
 * paired, each removed tool is paired with the added tool that would relax it most (drop one of
 * its declared hints, or its class), the most alike by name among equals. The riskiest removed
 * tools choose first (delete, then edit, then read): the worst case is what is judged, so that a
 * second tool removed beside a delete tool cannot take its successor and leave the delete tool
 * a plain removal, nor a decoy more alike by name take the place of the successor that relaxes
 * it most. A rename that also changed the schema is then still judged as one tool, so
 * hint-dropped and class-relaxed apply; a removal and an unrelated addition that happen to fit
 * are reported the same way, as probable, which a reviewer can approve. With `across`, only
 * pairs of two different servers (moves). The added tools are weighed by kind (what relaxation
 * reads of them: at most 48 a server), so no step is quadratic in the tools.
 */
export function probableRenames(
  { removed, added, before, after }: RenameCandidates,
  across = false,
): [string, string][] {
  const pairs: [string, string][] = [];
  // The added tools by server and kind, each kind's keys in name order.
  const free = new Map<string, { record: ToolRecord; keys: Set<string> }>();
  for (const key of [...added].sort(compareText)) {
    const record = after.get(key) as ToolRecord;
    const kind = `${record.server}\u0000${kindOf(record)}`;
    const held = free.get(kind);
    if (held) held.keys.add(key);
    else free.set(kind, { record, keys: new Set([key]) });
  }
  const risk = (key: string) => CLASS_RANK[(before.get(key) as ToolRecord).class];
  for (const oldKey of [...removed].sort((x, y) => risk(y) - risk(x) || compareText(x, y))) {
    const b = before.get(oldKey) as ToolRecord;
    let most = 0;
    let kinds: Set<string>[] = [];
    for (const { record, keys } of free.values()) {
      const relaxes = (record.server === b.server) === across ? 0 : relaxation(b, record);
      if (relaxes === 0 || keys.size === 0 || relaxes < most) continue;
      if (relaxes > most) [most, kinds] = [relaxes, []];
      kinds.push(keys);
    }
    const best = mostAlike(b.tool, kinds, after);
    if (!best) continue;
    for (const keys of kinds) keys.delete(best);
    pairs.push([oldKey, best]);
  }
  return pairs;
}

/** Of the keys of `kinds`, the one whose tool name is most like `name` (the first in name order among equals). */
function mostAlike(
  name: string,
  kinds: Set<string>[],
  after: Map<string, ToolRecord>,
): string | undefined {
  let best: { key: string; likeness: number } | undefined;
  let weighed = 0;
  for (const keys of kinds)
    for (const key of keys) {
      if (weighed++ >= LIKENESS_MAX) return best?.key;
      const likeness = nameLikeness(name, (after.get(key) as ToolRecord).tool);
      if (
        !best ||
        likeness > best.likeness ||
        (likeness === best.likeness && compareText(key, best.key) < 0)
      )
        best = { key, likeness };
    }
  return best?.key;
}

/**
 * Each tool removed outright that a newcomer of the same change would relax (its class, or a
 * hint it declared), more than that newcomer relaxes its own predecessor: a tool added, renamed
 * or moved, or one kept whose input schema changed (a tool can take over another's work under
 * its own name). Which tool a newcomer replaced is not known, a schema or a name paired it with
 * another, and the worst case is judged: the removal gets as its `successor` the newcomer that
 * relaxes it most (then the least of its own, then name order), and class-relaxed and
 * hint-dropped read it. `changes` are every change of one server, or of a whole run (moves).
 * The newcomers are weighed by kind (what relaxation reads of them: at most 48), so the work is
 * in proportion to the tools.
 */
export function markSuccessors(changes: ToolChange[]): void {
  // Of each kind of newcomer, the one that relaxes least of its own predecessor.
  const kinds = new Map<string, { record: ToolRecord; own: number; name: string }>();
  for (const c of changes) {
    if (!c.after || !isNewcomer(c)) continue;
    const own = c.before ? relaxation(c.before, c.after) : 0;
    const kind = kindOf(c.after);
    const held = kinds.get(kind);
    if (!held || own < held.own || (own === held.own && compareText(c.name, held.name) < 0))
      kinds.set(kind, { record: c.after, own, name: c.name });
  }
  for (const c of changes) {
    if (c.kind !== 'removed' || !c.before || c.successor) continue;
    let best: { record: ToolRecord; relaxes: number; own: number; name: string } | undefined;
    for (const { record, own, name } of kinds.values()) {
      const relaxes = relaxation(c.before, record);
      if (relaxes <= own) continue;
      if (
        !best ||
        relaxes > best.relaxes ||
        (relaxes === best.relaxes &&
          (own < best.own || (own === best.own && compareText(name, best.name) < 0)))
      )
        best = { record, relaxes, own, name };
    }
    if (best) c.successor = best.record;
  }
}

/** A tool that came in the change: added, renamed or moved, or kept with a new input schema. */
function isNewcomer(c: ToolChange): boolean {
  if (c.kind === 'added' || c.kind === 'renamed') return true;
  return c.kind === 'changed' && c.before !== undefined && c.before.schema !== c.after?.schema;
}

/** How many classes `after` falls below `before` (0 when it does not). */
function classFall(before: ToolRecord, after: ToolRecord): number {
  return Math.max(0, CLASS_RANK[before.class] - CLASS_RANK[after.class]);
}

/** The findings of a PR's change of the tool surface: each change rule's check, change by change. */
export function changeFindings(changes: ToolChange[]): Finding[] {
  return changes.flatMap((change) => runChecks('change', { change }));
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
      ...runChecks('run', {
        startRemoved: gone.map(({ tool, before }) => ({
          tool,
          class: before.class,
          reach: before.reach,
        })),
      }),
      f,
    ];
    return false;
  });
}

/**
 * Live tools that differ from the class list at HEAD: the drift rules' checks (unrecorded-change),
 * change by change.
 */
export function driftFindings(
  changes: ToolChange[],
  updateCommand: string,
  classListPath: string,
): Finding[] {
  return changes.flatMap((change) =>
    runChecks('drift', { change, updateCommand, classList: classListPath }),
  );
}
