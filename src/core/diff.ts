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
  const candidates = { removed, added, before, after };
  const settled = settledRenames(candidates, schemaRenames(candidates));
  rename(settled.certain, false);
  rename(settled.probable, true);
  const unpaired = (keys: string[]) => keys.filter((k) => !renamed.has(k));
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

/**
 * The renames of `certain` pairs (by schema or name) and of the probable-rename heuristic over
 * the tools they leave. A certain pair stands unless its added tool would relax another removed
 * tool more than the one it is paired with, and more than that tool's own partner (none: 0)
 * does: then which tool it replaced is not known (a delete tool removed beside a read tool whose
 * schema a read-only successor copied, say), and it goes back to the heuristic, which judges the
 * worst case. Each round takes one pair back; the check asks of each kind of removed tool, not
 * of each tool, so no step is quadratic in the tools.
 */
export function settledRenames(
  c: RenameCandidates,
  certain: [string, string][],
  across = false,
): { certain: [string, string][]; probable: [string, string][] } {
  const record = (side: Map<string, ToolRecord>, key: string) => side.get(key) as ToolRecord;
  let kept = certain;
  for (;;) {
    const used = new Set(kept.flat());
    const left = (keys: string[]) => keys.filter((k) => !used.has(k));
    const probable = probableRenames(
      { ...c, removed: left(c.removed), added: left(c.added) },
      across,
    );
    const partner = new Map(
      probable.map(([o, n]) => [o, relaxation(record(c.before, o), record(c.after, n))]),
    );
    // Each kind of removed tool left by the certain pairs, with the least relaxation its tools got.
    const kinds = new Map<string, { tool: ToolRecord; got: number }>();
    for (const key of left(c.removed)) {
      const tool = record(c.before, key);
      const kind = `${across ? tool.server : ''}/${kindOf(tool)}`;
      const got = partner.get(key) ?? 0;
      const held = kinds.get(kind);
      if (!held || got < held.got) kinds.set(kind, { tool, got });
    }
    const unsettled = kept.find(([oldKey, newKey]) => {
      const a = record(c.after, newKey);
      const own = relaxation(record(c.before, oldKey), a);
      return [...kinds.values()].some(
        ({ tool, got }) =>
          (tool.server === a.server) !== across && relaxation(tool, a) > Math.max(own, got),
      );
    });
    if (!unsettled) return { certain: kept, probable };
    kept = kept.filter((pair) => pair !== unsettled);
  }
}

/** What {@link relaxation} reads of a removed tool: its class and which hints it declares. */
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
  const fall = Math.max(0, CLASS_RANK[before.class] - CLASS_RANK[after.class]);
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

/**
 * The probable-rename heuristic: among the removed and added tools of one server that no schema
 * paired, each removed tool is paired with the added tool that would relax it most (drop one of
 * its declared hints, or its class), the most alike by name among equals. The riskiest removed
 * tools choose first (delete, then edit, then read): the worst case is what is judged, so that a
 * second tool removed beside a delete tool cannot take its successor and leave the delete tool
 * a plain removal. A rename that also changed the schema is then still judged as one tool, so
 * hint-dropped and class-relaxed apply; a removal and an unrelated addition that happen to fit
 * are reported the same way, as probable, which a reviewer can approve. With `across`, only
 * pairs of two different servers (moves).
 */
export function probableRenames(
  { removed, added, before, after }: RenameCandidates,
  across = false,
): [string, string][] {
  const pairs: [string, string][] = [];
  const free = new Set([...added].sort());
  const risk = (key: string) => CLASS_RANK[(before.get(key) as ToolRecord).class];
  const order = [...removed].sort((x, y) => risk(y) - risk(x) || (x < y ? -1 : x > y ? 1 : 0));
  for (const oldKey of order) {
    const b = before.get(oldKey) as ToolRecord;
    let best: { key: string; relaxes: number; likeness: number } | undefined;
    for (const newKey of free) {
      const a = after.get(newKey) as ToolRecord;
      const relaxes = (a.server === b.server) === across ? 0 : relaxation(b, a);
      if (relaxes === 0) continue;
      const likeness = nameLikeness(b.tool, a.tool);
      if (!best || relaxes > best.relaxes || (relaxes === best.relaxes && likeness > best.likeness))
        best = { key: newKey, relaxes, likeness };
    }
    if (best) {
      free.delete(best.key);
      pairs.push([oldKey, best.key]);
    }
  }
  return pairs;
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
