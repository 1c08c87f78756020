import type { AuditRun } from '../../src/audit.js';
import type { Report } from '../../src/report/report.js';

/** The report of an audit run, once every process it started is gone (as the CLI prints it). */
export async function reportOf(run: Promise<AuditRun>): Promise<Report> {
  const { report, settled } = await run;
  await settled;
  return report;
}
