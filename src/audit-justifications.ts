import { recordedHint } from './core/classlist.js';
import type { Finding } from './core/findings.js';
import {
  JUSTIFIED,
  declaredOf,
  parseJustifications,
  type DeclaredHint,
  type JustificationEntry,
  type Justifications,
  type JustificationsInput,
  type JustifiedHint,
} from './core/justifications.js';
import { withJsonPositions } from './core/jsontext.js';
import { runChecks } from './core/rules.js';
import type { JustificationsFacts } from './core/rules/rule.js';
import type { ServerReport } from './report/report.js';

export type { JustificationsInput };

/*
 * The audit's justifications step (audit.ts): OpenAI's hint justifications file, as the PR has
 * it, beside the live tools and the base commit's file, for the justification rules. The file is
 * PR code: its hints are compared with the server's, never trusted to say what the server
 * declares, and one the base had is not dropped from the check by deleting it, or an entry of
 * it (justification-removed): the base's file is read at the path the base's config names.
 */

/** A base file that does not parse compares as none: the PR may be the one that repairs it. */
function parsedBase(text: string | null, file: string): Justifications | undefined {
  if (text === null) return undefined;
  try {
    return parseJustifications(text, file);
  } catch {
    return undefined;
  }
}

/**
 * The base file's entry of a live tool: under its name, else, for a tool this change renamed,
 * under the name it had (`baseName`), so that a rename does not drop the reviewed entry either.
 */
function baseEntry(
  baseFile: Justifications | undefined,
  tool: string,
  changes: ServerReport['changes'],
): { before?: JustificationEntry; baseName?: string } {
  const own = baseFile?.get(tool);
  if (own || !baseFile) return own ? { before: own } : {};
  const renamed = changes.find((c) => c.kind === 'renamed' && c.tool === tool);
  const from = renamed?.before?.tool;
  const before = from !== undefined ? baseFile.get(from) : undefined;
  return before && from !== undefined ? { before, baseName: from } : {};
}

/**
 * The justification rules' findings: each about a live tool goes under its server's findings;
 * the rest (no file, entries of tools gone) are returned, the run's.
 */
export async function applyJustifications(
  servers: ServerReport[],
  input: JustificationsInput,
): Promise<Finding[]> {
  const base = await input.base;
  const baseFile = base ? parsedBase(base.text, input.file) : undefined;
  const text = input.text;
  const facts: JustificationsFacts = { file: input.file, tools: [], orphaned: [] };
  if (text === undefined) {
    if (!input.named && base?.text == null) return [];
    facts.absent = base?.text != null ? { deletedAt: base.label } : {};
    return runChecks('run', { justifications: facts });
  }
  const entries = await withJsonPositions(() => parseJustifications(text, input.file));
  const seen = new Set<string>();
  for (const server of servers)
    for (const tool of server.tools) {
      if (seen.has(tool.name)) continue;
      seen.add(tool.name);
      const live = {} as Record<JustifiedHint, DeclaredHint>;
      for (const [hint] of JUSTIFIED) live[hint] = declaredOf(recordedHint(tool.hints[hint]));
      const entry = entries.get(tool.name);
      const { before, baseName } = baseEntry(baseFile, tool.name, server.changes);
      facts.tools.push({
        tool: tool.name,
        server: server.server,
        live,
        ...(entry ? { entry } : {}),
        ...(before ? { base: before } : {}),
        ...(baseName !== undefined ? { baseName } : {}),
      });
    }
  facts.orphaned = [...entries.keys()].filter((tool) => !seen.has(tool));
  const run: Finding[] = [];
  for (const f of runChecks('run', { justifications: facts })) {
    const report = f.server !== undefined ? servers.find((s) => s.server === f.server) : undefined;
    if (report) report.findings.push(f);
    else run.push(f);
  }
  return run;
}
