import { keyedFindings, type Report } from './report.js';
import { toolLines } from '../core/classlist.js';
import { findingText } from '../core/findings.js';
import { ALL_RULES } from '../core/rules.js';
import type { Rule } from '../core/rules/rule.js';

const LEVEL = { error: 'error', warning: 'warning', notice: 'note' } as const;

/** A rule's SARIF metadata, from its file: what it means, its default level, what clears it. */
export function sarifRule(rule: Rule) {
  return {
    id: rule.id,
    shortDescription: { text: rule.summary },
    help: {
      text: `What clears it: ${rule.clears.replace(/`/g, '')}.`,
      markdown: `What clears it: ${rule.clears}.`,
    },
    defaultConfiguration: { level: LEVEL[rule.severity] },
  };
}

/**
 * The findings as SARIF 2.1.0, located on the class-list lines of the tools concerned, for code
 * scanning uploads.
 */
export function renderSarif(
  report: Report,
  classListText: string | undefined,
  classListPath: string,
  version: string,
): string {
  const lines = classListText !== undefined ? toolLines(classListText) : undefined;
  // The run's own findings (stale waivers) have no tool line: they point at the file's top.
  const results = keyedFindings(report).map(({ finding: f, key }) => {
    const line = key !== undefined ? lines?.get(key) : undefined;
    return {
      ruleId: f.rule,
      level: LEVEL[f.severity],
      message: {
        text: findingText(f),
      },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: f.location?.file ?? classListPath },
            region: { startLine: f.location?.line ?? line ?? 1 },
          },
        },
      ],
      ...(f.waived ? { suppressions: [{ kind: 'external', justification: f.waived.reason }] } : {}),
    };
  });
  const sarif = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'mcp-annotation-auditor',
            version,
            rules: ALL_RULES.map(sarifRule),
          },
        },
        results,
      },
    ],
  };
  return `${JSON.stringify(sarif, null, 2)}\n`;
}
