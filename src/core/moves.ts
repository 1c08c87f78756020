import { compareText } from './order.js';
import type { ToolRecord } from './classlist.js';
import {
  changeFindings,
  renameChange,
  markSuccessors,
  probableRenames,
  schemaRenames,
  type RenameCandidates,
  type ToolChange,
} from './diff.js';
import type { Finding } from './findings.js';

/*
 * Tools that move between servers. Each server is compared with its own reference, so a tool
 * that leaves one server and appears in another would be "removed" there and "added" here, and
 * the class it relaxes on the way (a delete tool re-declared as an edit tool) would pass unseen.
 * Once every server is compared, the run's removed and added tools are paired across servers,
 * and each pair is judged as a rename is: hint-dropped, class-relaxed, reach-opened.
 */

/** What pairing reads and rewrites of a server's report. */
export interface MovableServer {
  server: string;
  changes: ToolChange[];
  findings: Finding[];
}

/** Removed and added tools with the same tool name, each name unique on its side. */
function nameMoves({ removed, added, before, after }: RenameCandidates): [string, string][] {
  const unique = (keys: string[], side: Map<string, ToolRecord>) => {
    const byName = new Map<string, string[]>();
    for (const key of keys) {
      const tool = (side.get(key) as ToolRecord).tool;
      byName.set(tool, [...(byName.get(tool) ?? []), key]);
    }
    return byName;
  };
  const gone = unique(removed, before);
  const pairs: [string, string][] = [];
  for (const [tool, newKeys] of unique(added, after)) {
    const oldKeys = gone.get(tool);
    if (newKeys.length === 1 && oldKeys?.length === 1)
      pairs.push([oldKeys[0] as string, newKeys[0] as string]);
  }
  return pairs;
}

/**
 * Pairs of a removed tool of one server and an added tool of another, by full name (old, new):
 * the same tool name first, then the same input schema (each unique in the run), then the
 * probable-rename heuristic (a pair that would drop a hint or relax the class). Pairs within
 * one server are not made here: each server's own diff already made every one it could.
 */
export function movePairs(
  removed: Map<string, ToolRecord>,
  added: Map<string, ToolRecord>,
): [string, string][] {
  const pairs: [string, string][] = [];
  const paired = new Set<string>();
  const candidates = (): RenameCandidates => ({
    removed: [...removed.keys()].filter((k) => !paired.has(k)),
    added: [...added.keys()].filter((k) => !paired.has(k)),
    before: removed,
    after: added,
  });
  const across = ([oldKey, newKey]: [string, string]) =>
    removed.get(oldKey)?.server !== added.get(newKey)?.server;
  for (const step of [nameMoves, schemaRenames]) {
    for (const pair of step(candidates()).filter(across)) {
      paired.add(pair[0]).add(pair[1]);
      pairs.push(pair);
    }
  }
  return [...pairs, ...probableRenames(candidates(), true)];
}

/** The one-sided changes of every server of this kind, by full name, with the server's report. */
function oneSided(
  reports: MovableServer[],
  kind: 'added' | 'removed',
): Map<string, { report: MovableServer; change: ToolChange; record: ToolRecord }> {
  const out = new Map<string, { report: MovableServer; change: ToolChange; record: ToolRecord }>();
  for (const report of reports)
    for (const change of report.changes) {
      const record = kind === 'added' ? change.after : change.before;
      if (change.kind === kind && record) out.set(change.name, { report, change, record });
    }
  return out;
}

/** The rules that judge a removal against its successor (see markSuccessors). */
const SUCCESSOR_RULES = ['class-relaxed', 'hint-dropped'];

/** Takes a one-sided change, and the finding that reported it, out of its server's report. */
function takeOut(
  side: { report: MovableServer; change: ToolChange },
  rule: 'tool-added' | 'tool-removed',
): void {
  const { report, change } = side;
  report.changes = report.changes.filter((c) => c !== change);
  // A removal judged against its server's successor (SUCCESSOR_RULES) is judged as a move now.
  const rules = change.successor ? [rule, ...SUCCESSOR_RULES] : [rule];
  for (const name of rules) {
    const at = report.findings.findIndex((f) => f.rule === name && f.tool === change.tool);
    if (at >= 0) report.findings.splice(at, 1);
  }
}

/**
 * Each removal left once the moves are paired, judged against a newcomer that would relax it in
 * any server of the run (see markSuccessors): a schema or a name pairing the newcomer with
 * another tool, in its server or across, cannot leave a delete tool a plain removal.
 */
function markRunSuccessors(reports: MovableServer[]): void {
  const unmarked = reports.flatMap((report) =>
    report.changes.filter((c) => c.kind === 'removed' && !c.successor).map((c) => ({ report, c })),
  );
  markSuccessors(reports.flatMap((report) => report.changes));
  for (const { report, c } of unmarked)
    if (c.successor)
      report.findings.push(...changeFindings([c]).filter((f) => SUCCESSOR_RULES.includes(f.rule)));
}

/**
 * Tools that left one server and appeared in another in the same run, paired (see movePairs)
 * and judged as one tool: each pair's removed and added changes and their findings become one
 * rename change under the server it moved to, with its findings (tool-renamed says from which
 * server it moved; class-relaxed, hint-dropped and reach-opened follow). Rewrites the reports.
 */
export function pairMoves(reports: MovableServer[]): void {
  const gone = oneSided(reports, 'removed');
  const come = oneSided(reports, 'added');
  const records = (sides: typeof gone) =>
    new Map([...sides].map(([key, side]) => [key, side.record]));
  for (const [oldKey, newKey] of movePairs(records(gone), records(come))) {
    const [from, to] = [gone.get(oldKey), come.get(newKey)];
    if (!from || !to) continue;
    takeOut(from, 'tool-removed');
    takeOut(to, 'tool-added');
    // Only the heuristic's pairs are probable: a name or a schema pair is as sure as a rename.
    const probable = from.record.tool !== to.record.tool && from.record.schema !== to.record.schema;
    const change = renameChange(oldKey, newKey, from.record, to.record, probable);
    to.report.changes = [...to.report.changes, change].sort((x, y) => compareText(x.name, y.name));
    to.report.findings.push(...changeFindings([change]));
  }
  markRunSuccessors(reports);
}
