import type { ClientDecision, ClientVerdict } from '../clients/client.js';
import { clientById } from '../clients/registry.js';
import { describeMoves } from '../core/change.js';
import { codeSpanSafe, markdownSafe } from '../escape.js';
import type { ChangeVerdicts, ReportedChange } from './report.js';

/*
 * What a PR's class and hint changes do in each client the repository configures or the config
 * file lists, for the PR comment: per changed tool, per client, the decision against the base
 * record and against the head's (changes[].clients, computed by audit-clients.ts). The verdicts
 * may come from a report file written by the PR's own run: every string in them is escaped, and
 * whether a client's model is verified is this version's registry's word, never the file's.
 */

/** Enough tools to show a typical PR in full; the rest are counted, and are in the JSON. */
const MAX_TOOLS = 20;

const NOW: Record<ClientDecision, string> = {
  allow: 'now runs without asking',
  ask: 'now asks first',
  deny: 'is now refused',
  hidden: 'is now not offered',
};
const STILL: Record<ClientDecision, string> = {
  allow: 'still runs without asking',
  ask: 'still asks first',
  deny: 'is still refused',
  hidden: 'is still not offered',
};
const WAS: Record<ClientDecision, string> = {
  allow: 'ran without asking',
  ask: 'asked',
  deny: 'was refused',
  hidden: 'was not offered',
};

/** The client's name, and how far its model is a fact: the registry's, never the report's. */
function clientName(id: string): string {
  const client = clientById(id);
  if (!client) return `\`${codeSpanSafe(id, 40)}\` (a client this version does not know)`;
  return client.verified === 'documentation'
    ? `${client.label} (from their documentation)`
    : client.label;
}

/** What decided, escaped: the rule as written and where, else what the client does on its own. */
function cause(v: ClientVerdict): string {
  const where =
    v.file !== undefined
      ? ` in \`${codeSpanSafe(v.file, 120)}\`${v.line !== undefined ? ` line ${v.line}` : ''}`
      : '';
  const own = v.byClient !== undefined ? markdownSafe(v.byClient, 160) : undefined;
  if (v.rule !== undefined)
    return `\`${codeSpanSafe(v.rule, 120)}\`${where}${own !== undefined ? `; ${own}` : ''}`;
  return `${own ?? 'its default'}${where}`;
}

/** One client's line: what it decides now, and whether that moved. */
function clientLine(id: string, { before, after }: ChangeVerdicts): string {
  const does =
    before.decision === after.decision
      ? STILL[after.decision]
      : `${NOW[after.decision]} (before, it ${WAS[before.decision]})`;
  return `  - ${clientName(id)}: it ${does}: ${cause(after)}.`;
}

/** The change in the words the line opens with: the class and the hints that moved. */
function movement(change: ReportedChange): string {
  const { before, after } = change;
  const parts: string[] = [];
  if (before && after && before.class !== after.class)
    parts.push(`class ${before.class} -> ${after.class}`);
  if (change.hints.length) parts.push(describeMoves(change.hints));
  return parts.join(', ');
}

/**
 * The comment's lines on what each class or hint change does in each client (none when no change
 * carries clients' decisions). Past MAX_TOOLS tools or `budget` characters, the rest are counted.
 */
export function clientChangeLines(changes: readonly ReportedChange[], budget = 12_000): string[] {
  const judged = changes.filter((c) => c.clients && Object.keys(c.clients).length);
  const lines: string[] = [];
  let used = 0;
  let shown = 0;
  for (const change of judged.slice(0, MAX_TOOLS)) {
    const block = [
      `- \`${codeSpanSafe(change.tool, 64)}\`: ${movement(change)}`,
      ...Object.entries(change.clients ?? {}).map(([id, verdicts]) => clientLine(id, verdicts)),
    ];
    used += block.join('\n').length + 1;
    if (used > budget) break;
    lines.push(...block);
    shown += 1;
  }
  if (shown < judged.length)
    lines.push(
      `- _…and ${judged.length - shown} more changed tools: see the JSON report (\`changes[].clients\`)._`,
    );
  return lines;
}
