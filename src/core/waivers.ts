import { fullToolName } from './classlist.js';
import type { Finding } from './findings.js';
import {
  bySeverity,
  meetsThreshold,
  RULES,
  runChecks,
  type RuleId,
  type Severity,
} from './rules.js';

/* The policy a run applies to its findings: severity overrides, the approval label, waivers. */

/** A finding of one rule on one tool, accepted with a reason until a day (the config file's). */
export interface Waiver {
  rule: RuleId;
  /** The tool's name, or its full `mcp__server__tool` name. */
  tool: string;
  reason: string;
  /** YYYY-MM-DD; the waiver stops applying after this day. */
  expires?: string;
}

/** What applyPolicy reads of the run's settings. */
export interface FindingPolicy {
  waivers: Waiver[];
  severities: Partial<Record<RuleId, Severity | 'off'>>;
  /** Only some servers are audited: a waiver of another's tool is not stale. */
  partial: boolean;
}

function waiverMatches(waiver: Waiver, f: Finding, server: string): boolean {
  return (
    waiver.rule === f.rule &&
    f.tool !== undefined &&
    (waiver.tool === f.tool || waiver.tool === fullToolName(server, f.tool))
  );
}

/**
 * Severity overrides, the approval label, then waivers. Returns the run's own findings: those
 * given (`run`, which take the overrides and the label too) and the stale waivers.
 */
export function applyPolicy(
  reports: { server: string; findings: Finding[] }[],
  settings: FindingPolicy,
  approved: boolean,
  today: string,
  run: Finding[] = [],
): Finding[] {
  const used = new Set<Waiver>();
  const active = settings.waivers.filter((w) => w.expires === undefined || w.expires >= today);
  const adjust = (f: Finding): Finding | undefined => {
    // The config a rule judges (config-relaxed) cannot turn it down: its severity is the base
    // commit's (see configRelaxations).
    const override = RULES[f.rule].judgesConfig ? undefined : settings.severities[f.rule];
    if (override === 'off') return undefined;
    // An override sets the rule's severity; a finding filed below it on purpose (a schema-only
    // drift notice) is only ever lowered.
    if (
      override &&
      (f.severity === RULES[f.rule].severity || !meetsThreshold(override, f.severity))
    )
      f.severity = override;
    return f;
  };
  const approve = (f: Finding): Finding => {
    if (approved && RULES[f.rule].approvable && f.severity !== 'notice') {
      f.severity = 'notice';
      f.approved = true;
    }
    return f;
  };
  for (const report of reports) {
    report.findings = report.findings.flatMap((f) => {
      const adjusted = adjust(f);
      if (!adjusted) return [];
      const kept = approve(adjusted);
      const waiver = active.find((w) => waiverMatches(w, kept, report.server));
      if (waiver) {
        used.add(waiver);
        kept.waived = {
          reason: waiver.reason,
          ...(waiver.expires ? { expires: waiver.expires } : {}),
        };
      }
      return [kept];
    });
    report.findings.sort(bySeverity);
  }
  // The run's findings name no tool, so no waiver matches them.
  const runFindings = run.flatMap((f) => {
    const kept = adjust(f);
    return kept ? [approve(kept)] : [];
  });
  const audited = reports.map((r) => r.server);
  // A run of only some servers (--server) cannot tell a waiver of another server's tool (or of
  // a bare tool name, which any server may have) from a stale one.
  const mayBeOthers = (waiver: Waiver) =>
    settings.partial && !audited.some((server) => waiver.tool.startsWith(fullToolName(server, '')));
  const unusedWaivers = settings.waivers.flatMap((waiver) =>
    used.has(waiver) || mayBeOthers(waiver)
      ? []
      : [{ ...waiver, expired: waiver.expires !== undefined && waiver.expires < today }],
  );
  for (const f of runChecks('run', { unusedWaivers })) {
    const kept = adjust(f);
    if (kept) runFindings.push(kept);
  }
  return runFindings.sort(bySeverity);
}
