import type { ClassifiedTool } from './classify.js';
import { recordsOf, type ClassList, type ToolRecord } from './classlist.js';
import { carriesReason, diffRecords } from './diff.js';
import { liveRecords } from './listings.js';

/** What these functions read of a server's report. */
export interface ListedServer {
  server: string;
  tools: ClassifiedTool[];
  malformedNames?: string[];
}

/* What update writes: the class list with each audited server's entries replaced by its live tools. */

/** A server's entries in a class list, but for those of tools it listed malformed. */
export function recordedOf(
  list: ClassList | undefined,
  report: Pick<ListedServer, 'server' | 'malformedNames'>,
): Map<string, ToolRecord> {
  return withoutMalformed(recordsOf(list, report.server), report);
}

export function withoutMalformed(
  records: Map<string, ToolRecord>,
  report: Pick<ListedServer, 'server' | 'malformedNames'>,
): Map<string, ToolRecord> {
  const skip = new Set(report.malformedNames);
  if (!skip.size) return records;
  return new Map([...records].filter(([, r]) => !skip.has(r.tool)));
}

/**
 * The class list after update: each audited server's entries replaced by its live tools, each
 * keeping its reason (across a rename too, unless the class rose: see carriesReason); other
 * servers' entries untouched, unless `prune` removes them (reviewed entries leave only when asked).
 */
export function updatedClassList(
  existing: ClassList | undefined,
  servers: ListedServer[],
  prune: boolean,
): ClassList {
  const audited = new Set(servers.map((s) => s.server));
  const tools = new Map(
    [...(existing?.tools ?? [])].filter(([, r]) => !prune || audited.has(r.server)),
  );
  for (const report of servers) {
    // A tool listed malformed keeps its entry as it was: `before` leaves it out, so it stays.
    const before = recordedOf(existing, report);
    const live = liveRecords(report.server, report.tools);
    const carried = new Map(
      diffRecords(before, live)
        .filter(carriesReason)
        .map((c) => [c.name, c.before?.reason]),
    );
    for (const key of before.keys()) tools.delete(key);
    for (const [key, record] of live) {
      const reason = before.get(key)?.reason ?? carried.get(key);
      tools.set(key, reason !== undefined ? { ...record, reason } : record);
    }
  }
  const list: ClassList = { tools };
  if (existing?.$schema !== undefined) list.$schema = existing.$schema;
  return list;
}
